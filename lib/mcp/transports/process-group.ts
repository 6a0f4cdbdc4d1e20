import 'server-only';
import childProcess, { type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from '@/lib/mcp/transports/line-reader';

/** How long each step of a close waits (stdin closed, then SIGTERM, then SIGKILL), as the SDK's transport. */
const GRACE_MS = 2_000;
/** A process group per server (POSIX): what it started goes with it. */
const GROUPS = process.platform !== 'win32';

export type ProcessParams = {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  /** Largest single message accepted from the child. */
  maxBufferSize: number;
  onStderr: (text: string) => void;
};

const settles = (p: Promise<void>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    void p.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * MCP over a child's stdin/stdout, like the SDK's StdioClientTransport, but the child leads its own
 * process group, and the connection ends when the child exits. A server started through a wrapper or
 * one that starts helpers (`sh -c "helper & exec server"`, npx, a Python subprocess) leaves processes
 * holding its stdout: with the SDK's transport, which waits for the pipes to close, a crashed server
 * then looked connected (every call timed out, nothing restarted it) and a close left the helpers
 * running for good. Here the whole group is signalled on close, and killed when the child exits.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer: LineReader;

  constructor(private readonly params: ProcessParams) {
    this.buffer = new LineReader(params.maxBufferSize);
  }

  /** The child's process id (the group's too), once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    const { command, args, cwd, env } = this.params;
    return new Promise((resolve, reject) => {
      const child: ChildProcess = childProcess.spawn(command, args, {
        env: env as NodeJS.ProcessEnv, // exactly these (no NODE_ENV unless configured)
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: GROUPS,
        windowsHide: true,
      });
      this.child = child;
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => resolve());
      child.on('exit', () => this.exited(child));
      child.on('close', () => {
        if (this.child === child) this.child = undefined;
        this.buffer.clear();
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.readMessages(this.buffer.push(chunk));
        } catch (err) {
          this.onerror?.(err as Error);
          void this.close();
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => this.params.onStderr(chunk.toString('utf8')));
    });
  }

  private readMessages(lines: string[]): void {
    for (const line of lines) {
      try {
        this.onmessage?.(deserializeMessage(line));
      } catch (err) {
        this.onerror?.(err as Error);
      }
    }
  }

  /**
   * The server exited: what it left in its group is killed, so the pipes close and the connection ends
   * now (what it wrote before exiting is still read). Should something outside the group hold them, they
   * are let go after GRACE_MS.
   */
  private exited(child: ChildProcess): void {
    signal(child, 'SIGKILL');
    const timer = setTimeout(() => release(child), GRACE_MS);
    timer.unref();
    child.once('close', () => clearTimeout(timer));
  }

  /** Closes stdin, then signals the group: SIGTERM after GRACE_MS, SIGKILL after another. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (await settles(gone, GRACE_MS)) return;
    signal(child, 'SIGTERM');
    if (await settles(gone, GRACE_MS)) return;
    signal(child, 'SIGKILL');
    release(child);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }
}

/** Signals the child's whole group (or the child alone where there are no groups); gone already is fine. */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    if (GROUPS && child.pid) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    // the group is gone
  }
}

/** Lets go of the child's pipes, so its 'close' comes even while something outside its group holds them. */
function release(child: ChildProcess): void {
  child.stdin?.destroy();
  child.stdout?.destroy();
  child.stderr?.destroy();
}
