/** Keeps the last lines of a stream (a server's stderr) within a line and byte budget. */
export class LineBuffer {
  private lines: string[] = [];
  private bytes = 0;
  private partial = '';

  constructor(
    private readonly maxLines = 200,
    private readonly maxBytes = 64 * 1024,
  ) {}

  write(chunk: string): void {
    const text = this.partial + chunk;
    const parts = text.split('\n');
    this.partial = (parts.pop() ?? '').slice(-4096);
    for (const line of parts) this.push(line);
  }

  push(line: string): void {
    const clipped = line.length > 2000 ? `${line.slice(0, 2000)}…` : line;
    this.lines.push(clipped);
    this.bytes += clipped.length;
    while (this.lines.length > this.maxLines || this.bytes > this.maxBytes) {
      this.bytes -= this.lines.shift()?.length ?? 0;
    }
  }

  tail(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }
}
