import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

/**
 * Remote (HTTP) test servers in the fault tests: a front door that fails on demand (FlakyFront), and
 * what a server started by startHttp logged (requestsOf, initializesAt).
 */

/**
 * A real HTTP front door for a remote test server that can fail on demand: `down` stops listening
 * (connection refused), `503` answers every request with 503, `up` forwards to `target`. It logs every
 * request it sees, so a test can count what reaches the server.
 */
export class FlakyFront {
  target = '';
  mode: 'up' | '503' = 'up';
  readonly seen: Array<{ method: string; session: string | undefined; status: number }> = [];
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private port = 0;

  async start(target: string): Promise<string> {
    this.target = target;
    await this.listen();
    this.port = (this.server.address() as AddressInfo).port;
    after(() => this.down());
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  async down(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  async up(mode: 'up' | '503'): Promise<void> {
    this.mode = mode;
    if (!this.server.listening) await this.listen();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const entry = {
      method: req.method ?? '',
      session: req.headers['mcp-session-id'] as string | undefined,
      status: 0,
    };
    this.seen.push(entry);
    if (this.mode === '503') {
      entry.status = 503;
      req.resume();
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      return;
    }
    const url = new URL(req.url ?? '/', this.target);
    const forward = http.request(
      url,
      { method: req.method, headers: { ...req.headers, host: url.host } },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders(); // as the server sent them: an SSE response starts before its first event
        answer.pipe(res);
      },
    );
    forward.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  }
}

/** A test server started by startHttp (e2e/fixtures/test-mcp-harness.ts). */
export type HttpServer = { child: ChildProcess; url: string; stderr: () => string };

/** The HTTP requests a test server logged (one JSON line per request on its stderr). */
export function requestsOf(server: HttpServer): Array<{ method: string; path: string; session?: string }> {
  return server
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      const r = JSON.parse(line) as { method: string; path: string; headers: Record<string, string> };
      return { method: r.method, path: r.path, session: r.headers['mcp-session-id'] };
    });
}

/** Streamable HTTP initialize requests a test server saw: POSTs to /mcp without a session id. */
export const initializesAt = (server: HttpServer) =>
  requestsOf(server).filter((r) => r.method === 'POST' && r.path === '/mcp' && !r.session).length;
