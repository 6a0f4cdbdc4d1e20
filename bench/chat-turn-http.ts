/**
 * HTTP client for the chat-turn benchmark: timed streaming requests (straight to the fake model, or
 * through the app's POST /api/chat), small JSON calls, and the chat page's script sizes.
 * Uses node:http with keep-alive agents (like a browser, connections are reused between turns).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';

const agents = new Map<string, http.Agent>();
/** When each pooled socket became free. */
const freeSince = new WeakMap<object, number>();
/**
 * Node's agent keeps idle sockets until the server closes them (the server's keep-alive timeout is
 * 5 s), so reusing one just as the server closes it fails with ECONNRESET — a client-side race, not
 * something the app did. Idle sockets are dropped after 3 s, well before the server's timeout.
 */
const IDLE_SOCKET_MS = 3000;
const agentFor = (origin: string) => {
  let a = agents.get(origin);
  if (!a) {
    a = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
    a.on('free', (socket: object) => freeSince.set(socket, performance.now()));
    agents.set(origin, a);
  }
  const now = performance.now();
  for (const list of Object.values(a.freeSockets)) {
    for (const socket of [...(list ?? [])])
      if (now - (freeSince.get(socket) ?? now) > IDLE_SOCKET_MS) socket.destroy();
  }
  return a;
};
export const closeAgents = () => {
  for (const a of agents.values()) a.destroy();
};

/** One timed streamed request. Times are ms from just before the request was issued. */
export type Timing = {
  ok: boolean;
  status: number;
  /** response headers received */
  headersMs: number;
  /** first body byte */
  firstByteMs: number;
  /** first text token: a non-empty content delta (model) or a `text-delta` chunk (app) */
  ttftMs: number;
  /** stream end */
  totalMs: number;
  bytes: number;
  /** why ok is false (status, missing end marker, error event, socket error) */
  problem?: string;
};

export type StreamCheck = {
  /** Marks the first token in the accumulated body text. */
  firstToken: RegExp;
  /** Every one of these must be in the full body for the turn to count as a success. */
  mustContain: string[];
  /** None of these may be in the body. */
  mustNotContain: string[];
};

/** First token straight from the model: `"delta":{"content":"<non-empty>`. The role chunk has content "". */
export const MODEL_STREAM = (lastWord: string): StreamCheck => ({
  firstToken: /"delta":\{"content":"[^"]/,
  mustContain: [lastWord, 'data: [DONE]'],
  mustNotContain: [],
});

/** First token through the app: the AI SDK UI message stream's first `text-delta` chunk. */
export const APP_STREAM = (lastWord: string, extra: string[] = []): StreamCheck => ({
  firstToken: /"type":"text-delta"/,
  mustContain: [lastWord, '"type":"finish"', ...extra],
  mustNotContain: ['"type":"error"'],
});

/**
 * POSTs `body` (JSON) and times the streamed answer. The body text is only searched until the first
 * token is found, and kept (for the end checks) as a plain string.
 */
export function timedStream(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  check: StreamCheck,
): Promise<Timing> {
  const u = new URL(url);
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const t: Timing = {
      ok: false,
      status: 0,
      headersMs: Number.NaN,
      firstByteMs: Number.NaN,
      ttftMs: Number.NaN,
      totalMs: Number.NaN,
      bytes: 0,
    };
    let text = '';
    const t0 = performance.now();
    const done = (problem?: string) => {
      if (!Number.isNaN(t.totalMs)) return;
      t.totalMs = performance.now() - t0;
      if (!problem && t.status !== 200) problem = `HTTP ${t.status}: ${text.slice(0, 300)}`;
      if (!problem && Number.isNaN(t.ttftMs)) problem = 'no text token in the stream';
      if (!problem)
        for (const s of check.mustContain)
          if (!text.includes(s)) problem = `missing ${JSON.stringify(s)} (end: ${text.slice(-300)})`;
      if (!problem)
        for (const s of check.mustNotContain)
          if (text.includes(s))
            problem = `contains ${JSON.stringify(s)}: ${text.slice(text.indexOf(s) - 100, text.indexOf(s) + 300)}`;
      t.ok = !problem;
      if (problem) t.problem = problem;
      resolve(t);
    };
    const req = http.request(
      u,
      {
        method: 'POST',
        agent: agentFor(u.origin),
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        t.headersMs = performance.now() - t0;
        t.status = res.statusCode ?? 0;
        // Like a browser, every request accepts compression (below); a token stream must not be compressed.
        const encoding = res.headers['content-encoding'];
        if (encoding && encoding !== 'identity') {
          res.resume();
          return done(
            `the stream is compressed (content-encoding: ${encoding}): every token would cost a zlib flush`,
          );
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const now = performance.now() - t0;
          if (t.bytes === 0) t.firstByteMs = now;
          t.bytes += chunk.length;
          // Search only the new chunk plus a small tail of the old text (a marker may straddle chunks).
          if (Number.isNaN(t.ttftMs) && check.firstToken.test(text.slice(-40) + chunk)) t.ttftMs = now;
          text += chunk;
        });
        res.on('end', () => done());
        res.on('error', (err) => done(`response error: ${err.message}`));
        res.on('aborted', () => done('response aborted'));
      },
    );
    req.on('error', (err) => done(`request error: ${err.message}`));
    req.end(payload);
  });
}

export type JsonResult = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A small non-streamed request (sign-up, settings, the model's request log, pages). */
export function request(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<JsonResult> {
  const u = new URL(url);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      u,
      {
        method,
        agent: agentFor(u.origin),
        headers: {
          ...headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Signs up the first account (an admin) on a fresh app at `url` and lifts its chat limits for a
 * benchmark (`maxConcurrentTurns`: turns at once); the headers for its requests (origin and cookie).
 */
export async function signUpBenchAdmin(
  url: string,
  maxConcurrentTurns = 1000,
): Promise<{ origin: string; cookie: string }> {
  const origin = { origin: url };
  const up = await request(`${url}/api/auth/sign-up/email`, 'POST', origin, {
    name: 'Bench Admin',
    email: 'bench@example.com',
    password: 'bench-password-1',
  });
  if (up.status !== 200) throw new Error(`sign-up failed: HTTP ${up.status} ${up.body}`);
  const auth = { ...origin, cookie: cookieHeader(up.headers) };
  const limits = await request(`${url}/api/admin/settings`, 'PATCH', auth, {
    chatRequestsPerMinute: 10_000,
    maxConcurrentTurns,
  });
  if (limits.status !== 200)
    throw new Error(`raising the chat limits failed: HTTP ${limits.status} ${limits.body}`);
  return auth;
}

/** Bytes of a GET, uncompressed (no Accept-Encoding is sent). */
function getBytes(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: Buffer }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    http
      .get(u, { agent: agentFor(u.origin), headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export type PageJs = {
  pageStatus: number;
  scripts: Array<{ src: string; status: number; rawBytes: number; gzipBytes: number }>;
  rawBytes: number;
  gzipBytes: number;
};

/**
 * Every `<script src="/_next/…">` of a page a browser loads (not `nomodule` ones), fetched and gzipped
 * (zlib level 9, like bundle-size tools).
 */
export async function pageScripts(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<PageJs> {
  const page = await getBytes(new URL(path, base).href, headers);
  const html = page.bytes.toString('utf8');
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*?\ssrc="([^"]+)"[^>]*>/g)) {
    // A `nomodule` script (Next's legacy polyfills) is skipped by every browser that runs modules.
    if (/\snomodule\b/i.test(m[0])) continue;
    const src = m[1]!.replaceAll('&amp;', '&');
    if (new URL(src, base).pathname.startsWith('/_next/')) srcs.add(src);
  }
  const scripts = [];
  for (const src of srcs) {
    const r = await getBytes(new URL(src, base).href, headers);
    scripts.push({
      src,
      status: r.status,
      rawBytes: r.bytes.length,
      gzipBytes: gzipSync(r.bytes, { level: 9 }).length,
    });
  }
  return {
    pageStatus: page.status,
    scripts,
    rawBytes: scripts.reduce((s, x) => s + x.rawBytes, 0),
    gzipBytes: scripts.reduce((s, x) => s + x.gzipBytes, 0),
  };
}

/** `name=value` pairs of every Set-Cookie header, joined for a Cookie header. */
export function cookieHeader(headers: http.IncomingHttpHeaders): string {
  return (headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
}
