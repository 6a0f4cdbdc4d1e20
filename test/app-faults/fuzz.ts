/**
 * The R7 route fuzzer's pieces: every `app/api/**\/route.ts` with the methods it exports (read from
 * the source, so a new route is fuzzed without touching the test), the bad inputs, and a raw HTTP
 * client that records whatever happens (status, reset, timeout) instead of throwing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** `readsBody`: the route's source reads a request body at all (some actions, like a server test, take none). */
export type ApiRoute = { pattern: string; methods: string[]; readsBody: boolean };

/** Every API route under `app/api`, as `/api/a/[id]/b`, with its exported HTTP methods. */
export function apiRoutes(root: string): ApiRoute[] {
  const out: ApiRoute[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const source = readFileSync(full, 'utf8');
        const methods = [
          ...source.matchAll(
            /export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g,
          ),
        ].map((m) => m[1]!);
        const pattern = `/${path.relative(path.join(root, 'app'), dir).split(path.sep).join('/')}`;
        out.push({
          pattern,
          methods,
          readsBody: /readJson\(|\.json\(\)|\.formData\(\)|\.text\(\)|handler\(req\)/.test(source),
        });
      }
    }
  };
  walk(path.join(root, 'app', 'api'));
  return out.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** Values for a dynamic segment that name nothing (and try to escape it). */
export const BAD_IDS = [
  'does-not-exist',
  '..%2F..%2Fetc%2Fpasswd',
  `${'x'.repeat(3000)}`,
  "1'%20OR%20'1'%3D'1",
  '%00',
  '%F0%9F%92%A9%E2%80%AE',
];
/**
 * Paths for the auth library's catch-all: its real endpoints and some it does not have. Not sign-out:
 * it rightly accepts any JSON body, and would end the fuzzer's own sessions halfway through.
 */
export const AUTH_PATHS = [
  'sign-in/email',
  'sign-up/email',
  'get-session',
  'update-user',
  'no-such-endpoint',
  '..%2Fadmin',
];

/** Concrete URLs for a route: every dynamic segment replaced by each bad id (catch-alls by auth paths). */
export function concretePaths(pattern: string): string[] {
  if (pattern.includes('[...')) return AUTH_PATHS.map((p) => pattern.replace(/\[\.\.\.[^\]]+\]/, p));
  if (!pattern.includes('[')) return [pattern];
  return BAD_IDS.map((id) => pattern.replace(/\[[^\]]+\]/g, id));
}

export type BodyCase = { label: string; contentType?: string; body?: Buffer; chunked?: boolean };

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
/** Small bad bodies: missing, malformed, wrong shape, wrong content type. */
export const SMALL_BODIES: BodyCase[] = [
  { label: 'no body' },
  { label: 'empty JSON body', contentType: 'application/json', body: Buffer.alloc(0) },
  {
    label: 'malformed JSON',
    contentType: 'application/json',
    body: Buffer.from('{"id": "abc", "message": '),
  },
  { label: 'JSON null', contentType: 'application/json', body: Buffer.from('null') },
  { label: 'JSON array', contentType: 'application/json', body: Buffer.from('[1, "two", {"three": 3}]') },
  {
    label: 'wrong types',
    contentType: 'application/json',
    body: Buffer.from('{"id":{"$ne":1},"message":42,"name":[],"role":{"x":1},"enabled":"yes","title":null}'),
  },
  {
    label: 'prototype keys',
    contentType: 'application/json',
    body: Buffer.from('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
  },
  {
    label: 'deeply nested JSON',
    contentType: 'application/json',
    body: Buffer.from(`{"a":${deep(50_000)}}`),
  },
  {
    label: 'invalid UTF-8 JSON',
    contentType: 'application/json',
    body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')]),
  },
  { label: 'text/plain', contentType: 'text/plain', body: Buffer.from('hello there') },
  {
    label: 'form-urlencoded',
    contentType: 'application/x-www-form-urlencoded',
    body: Buffer.from('email=a%40b.c&password=x&role=admin'),
  },
  {
    label: 'multipart',
    contentType: 'multipart/form-data; boundary=zzz',
    body: Buffer.from(
      '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n{}\r\n--zz',
    ),
  },
  {
    label: 'binary octet-stream',
    contentType: 'application/octet-stream',
    body: Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]),
  },
];

const HUGE = Buffer.alloc(20 * 1024 * 1024, 'a');
HUGE.write('{"x":"');
HUGE.write('"}', HUGE.length - 2);
/** 20 MB of JSON, declared with Content-Length, and the same sent chunked (no length up front). */
export const HUGE_BODIES: BodyCase[] = [
  { label: '20 MB JSON (content-length)', contentType: 'application/json', body: HUGE },
  { label: '20 MB JSON (chunked)', contentType: 'application/json', body: HUGE, chunked: true },
];

export type Outcome = { status: number | 'reset' | 'timeout'; ms: number; error?: string };

/**
 * One raw HTTP/1.1 request on its own socket; never throws. Raw, so that what is seen is the server's
 * doing (Node's own client sends `Connection: close` and can lose an early answer to a large body).
 * Large bodies go 256 KB at a time and stop once the answer has begun (as a browser does).
 */
export function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  c: BodyCase,
  timeoutMs = 15_000,
): Promise<Outcome> {
  const started = performance.now();
  const u = new URL(url);
  return new Promise((resolve) => {
    let status: number | undefined;
    let received = '';
    let settled = false;
    const done = (o: Omit<Outcome, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ ...o, ms: Math.round(performance.now() - started) });
    };
    const large = Boolean(c.body && c.body.length >= 1024 * 1024);
    // Small requests ask the server to close after its answer, so the end of the answer is the end of
    // the stream. A large one keeps the connection: a server that closes with our unread body still in
    // its buffer sends a TCP reset, which can destroy its own answer before we read it.
    const h: Record<string, string> = {
      host: u.host,
      connection: large ? 'keep-alive' : 'close',
      ...headers,
    };
    if (c.contentType) h['content-type'] = c.contentType;
    if (c.body && c.chunked) h['transfer-encoding'] = 'chunked';
    else if (c.body) h['content-length'] = String(c.body.length);
    const head = `${method} ${u.pathname}${u.search} HTTP/1.1\r\n${Object.entries(h)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    const sock = net.connect(Number(u.port), u.hostname);
    const timer = setTimeout(() => done({ status: status ?? 'timeout' }), timeoutMs);
    sock.on('data', (d: Buffer) => {
      if (status !== undefined) return;
      received += d.toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (m) status = Number(m[1]);
      // A large body is not sent on once the answer has begun; a small one waits for the whole answer.
      if (status !== undefined && large) done({ status });
    });
    sock.on('end', () =>
      done(status !== undefined ? { status } : { status: 'reset', error: 'closed without an answer' }),
    );
    sock.on('error', (err) =>
      done(status !== undefined ? { status } : { status: 'reset', error: err.message }),
    );
    sock.write(head);
    const body = c.body;
    if (!body) return;
    const frame = (piece: Buffer) =>
      c.chunked
        ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
        : piece;
    let offset = 0;
    const pump = () => {
      if (status !== undefined || sock.destroyed) return;
      if (offset >= body.length) return void (c.chunked ? sock.write('0\r\n\r\n') : undefined);
      const piece = body.subarray(offset, offset + 256 * 1024);
      offset += piece.length;
      if (sock.write(frame(piece))) setImmediate(pump);
      else sock.once('drain', pump);
    };
    pump();
  });
}
