/**
 * Splits a child's stdout into lines (one JSON-RPC message each) in time linear in what arrives. The
 * SDK's ReadBuffer concatenated its whole buffer with each chunk and searched it all for a newline:
 * a 60 MB message, arriving in 64 KB pipe reads, cost ~34 s of the host's one thread (quadratic), and a
 * server may send such messages unasked, one after another.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The lines this chunk completes (without their line end); throws past `maxBytes` in one line. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.add(chunk.subarray(start, nl));
      const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
      lines.push((line ?? Buffer.alloc(0)).toString('utf8').replace(/\r$/, ''));
      this.clear();
      start = nl + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
    return lines;
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
  }

  private add(part: Buffer): void {
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.clear();
      throw new Error(`A message from the server exceeded the maximum size of ${this.maxBytes} bytes`);
    }
    this.parts.push(part);
  }
}
