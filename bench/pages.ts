/**
 * Page benchmark (issue 7): what a person waits for when opening pages, not chat turns.
 *
 * Needs an existing production build (.next/BUILD_ID); builds nothing. One run starts `next start` (same
 * Node flags as `npm start`) on a fresh temp database, signs up an admin ("big") and creates a second
 * user ("empty"), then seeds straight into the SQLite file (better-sqlite3, one transaction) for "big":
 * 10,000 conversations, one of them with 5,000 messages and one with 10. It measures, in the same run:
 *  - the chat page's first-load JavaScript (every /_next/ <script src> of `/`, gzipped, like bench/chat-turn.ts);
 *  - GET /c/<5,000-message conversation> (the whole server render, until the last byte), p50/p95 over 20,
 *    beside the 10-message conversation;
 *  - GET /api/conversations (one page of the history list) with 10,000 conversations, p50/p95 over 50,
 *    beside the same request of a user with no conversations.
 * Prints one table and writes bench/results-pages.json. Measurements only, never pass/fail.
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/pages.ts
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { closeAgents, cookieHeader, pageScripts, request } from './chat-turn-http';
import { type Child, freePort, nextStartArgv, startChild, stopChild, waitForHttp } from './chat-turn-procs';
import type { ChatMessage } from '@/lib/schemas/chat';
import { percentile } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(import.meta.dirname, 'results-pages.json');
const BIG = { name: 'Bench Big', email: 'big@example.com', password: 'bench-password-1' };
const EMPTY = { name: 'Bench Empty', email: 'empty@example.com', password: 'bench-password-2' };
const CONVERSATIONS = 10_000;
const LONG_MESSAGES = 5_000;
const SHORT_MESSAGES = 10;
const PAGE_RUNS = 20;
const LIST_RUNS = 50;

const children: Child[] = [];
let tmpDir = '';
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

/** A user question and a Markdown answer of typical size (about 120 words, a code block every 5th answer). */
function messageParts(i: number): Omit<ChatMessage, 'id'> {
  if (i % 2 === 0)
    return {
      role: 'user',
      parts: [
        {
          type: 'text',
          text: `Question ${i}: how would I make the step ${i} of this pipeline faster without changing its output?`,
        },
      ],
    };
  const words = Array.from({ length: 100 }, (_, k) => `word${(i * 7 + k) % 97}`).join(' ');
  const code =
    i % 10 === 1
      ? `\n\n\`\`\`ts\nexport function step${i}(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n\`\`\`\n`
      : '';
  return {
    role: 'assistant',
    parts: [
      {
        type: 'text',
        text: `## Answer ${i}\n\nThe short version: **cache it**. ${words}\n\n- one point\n- another point${code}`,
      },
    ],
  };
}

/** Seeds the big user's history in one transaction; returns the ids of the long and the short conversation. */
function seed(dbPath: string, userId: string): { long: string; short: string } {
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  const insertConv = db.prepare(
    'insert into conversations (id, user_id, title, created_at, updated_at) values (?, ?, ?, ?, ?)',
  );
  const insertMsg = db.prepare(
    'insert into messages (id, conversation_id, role, parts, metadata, parent_id, seq, created_at) values (?, ?, ?, ?, null, ?, ?, ?)',
  );
  const ids = { long: 'bench-long', short: 'bench-short' };
  db.transaction(() => {
    for (let c = 0; c < CONVERSATIONS; c++) {
      const id = c === 0 ? ids.long : c === 1 ? ids.short : `bench-c${c}`;
      const at = now - c * 60_000;
      insertConv.run(id, userId, `Conversation ${c}`, at, at);
      const count = c === 0 ? LONG_MESSAGES : c === 1 ? SHORT_MESSAGES : 0;
      for (let i = 0; i < count; i++) {
        const m = messageParts(i);
        // created_at ends at the conversation's own time, so the touch trigger keeps the order above.
        // One path: each message follows the one before it.
        insertMsg.run(
          `${id}-m${i}`,
          id,
          m.role,
          JSON.stringify(m.parts),
          i ? `${id}-m${i - 1}` : null,
          i,
          at - (count - i),
        );
      }
    }
  })();
  db.close();
  return ids;
}

async function timed(url: string, cookie: string, runs: number, mustContain: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const res = await request(url, 'GET', { cookie });
    const ms = performance.now() - t0;
    if (res.status !== 200 || !res.body.includes(mustContain))
      throw new Error(`GET ${url}: HTTP ${res.status}, missing ${JSON.stringify(mustContain)}`);
    if (i >= 2) times.push(ms); // two warm-up requests
  }
  return times;
}

const stat = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), n: xs.length });

async function teardown() {
  for (const c of children.splice(0).reverse()) await stopChild(c);
  closeAgents();
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  tmpDir = '';
}

async function main() {
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID')))
    throw new Error('No production build (.next/BUILD_ID): run `next build` first.');
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'pages-bench-'));
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const dbPath = path.join(tmpDir, 'app.db');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_PATH: dbPath,
    APP_URL: appUrl,
  };
  env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1'; // never called: no turn runs here
  env.OPENAI_API_KEY = 'sk-bench-key';
  env.CHAT_MODEL = 'fake-model';
  for (const key of ['NODE_OPTIONS', 'AUTH_SECRET', 'PORT', 'DEBUG_SQL_COUNT', 'MCP_SERVERS_FILE'])
    delete env[key];
  const app = startChild('next start', nextStartArgv(port), env, ROOT);
  children.push(app);
  await waitForHttp(`${appUrl}/api/health`, app, 60_000);
  log(`app ready on ${appUrl}`);

  const origin = { origin: appUrl };
  const up = await request(`${appUrl}/api/auth/sign-up/email`, 'POST', origin, BIG);
  if (up.status !== 200) throw new Error(`sign-up failed: HTTP ${up.status} ${up.body}`);
  const big = cookieHeader(up.headers);
  const userId = (JSON.parse(up.body) as { user: { id: string } }).user.id;
  const made = await request(
    `${appUrl}/api/admin/users`,
    'POST',
    { ...origin, cookie: big },
    { ...EMPTY, role: 'user' },
  );
  if (made.status !== 201)
    throw new Error(`creating the second user failed: HTTP ${made.status} ${made.body}`);
  const inn = await request(`${appUrl}/api/auth/sign-in/email`, 'POST', origin, {
    email: EMPTY.email,
    password: EMPTY.password,
  });
  if (inn.status !== 200) throw new Error(`sign-in failed: HTTP ${inn.status} ${inn.body}`);
  const empty = cookieHeader(inn.headers);

  const t0 = performance.now();
  const ids = seed(dbPath, userId);
  log(
    `seeded ${CONVERSATIONS} conversations (${LONG_MESSAGES} + ${SHORT_MESSAGES} messages) in ${(performance.now() - t0).toFixed(0)} ms`,
  );

  log('chat page first-load JS');
  const js = await pageScripts(appUrl, '/', { cookie: big });
  // Next.js adds its legacy polyfills as <script nomodule>: browsers with ES modules (all current ones) never fetch it.
  const html = (await request(`${appUrl}/`, 'GET', { cookie: big })).body;
  const noModule = new Set(
    [...html.matchAll(/<script\b[^>]*\bnomodule\b[^>]*>/gi)].map((m) =>
      /\ssrc="([^"]+)"/.exec(m[0])?.[1]?.replaceAll('&amp;', '&'),
    ),
  );
  const noModuleGzip = js.scripts.filter((x) => noModule.has(x.src)).reduce((sum, x) => sum + x.gzipBytes, 0);
  log(`conversation pages: ${PAGE_RUNS} requests each`);
  const lastText = `Answer ${LONG_MESSAGES - 1}`;
  const longPage = stat(await timed(`${appUrl}/c/${ids.long}`, big, PAGE_RUNS, lastText));
  const shortPage = stat(
    await timed(`${appUrl}/c/${ids.short}`, big, PAGE_RUNS, `Answer ${SHORT_MESSAGES - 1}`),
  );
  const longBytes = (await request(`${appUrl}/c/${ids.long}`, 'GET', { cookie: big })).body.length;
  log(`history list: ${LIST_RUNS} requests each`);
  const listBig = stat(await timed(`${appUrl}/api/conversations`, big, LIST_RUNS, '"nextCursor":"'));
  const listEmpty = stat(await timed(`${appUrl}/api/conversations`, empty, LIST_RUNS, '"items":[]'));
  await teardown();

  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const ms = (s: { p50: number; p95: number }) => `${s.p50.toFixed(1)} / ${s.p95.toFixed(1)} ms`;
  const rows = [
    ['figure', 'measured', 'baseline (same run)', 'target'],
    [
      'chat page first-load JS (gzip)',
      kb(js.gzipBytes),
      `${js.scripts.length} scripts, ${kb(js.rawBytes)} raw`,
      '≤ 250 KB',
    ],
    [
      '  of which <script nomodule> polyfills',
      kb(noModuleGzip),
      `${kb(js.gzipBytes - noModuleGzip)} without them`,
      '',
    ],
    [
      `open a ${LONG_MESSAGES}-message conversation, p50 / p95`,
      ms(longPage),
      `${ms(shortPage)} (${SHORT_MESSAGES} messages)`,
      '≤ 300 ms',
    ],
    [
      `history list page, ${CONVERSATIONS} conversations, p50 / p95`,
      ms(listBig),
      `${ms(listEmpty)} (no conversations)`,
      '≤ 20 ms',
    ],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(
    `\nPage benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu?'} ×${os.cpus().length}\n`,
  );
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, k) => c.padEnd(widths[k]!)).join('  '));
    if (i === 0) console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  }
  console.log(
    `\nTimes are whole responses (until the last byte) over loopback, after 2 warm-up requests. The long page's HTML is ${kb(longBytes)}.`,
  );
  const json = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model,
    cpus: os.cpus().length,
    unit: 'ms, bytes',
    pageJs: { ...js, noModuleGzipBytes: noModuleGzip },
    longConversation: { messages: LONG_MESSAGES, ...longPage, htmlBytes: longBytes },
    shortConversation: { messages: SHORT_MESSAGES, ...shortPage },
    historyList: { conversations: CONVERSATIONS, ...listBig },
    historyListEmpty: { conversations: 0, ...listEmpty },
    targets: { pageJsGzipBytes: 250 * 1024, longConversationMs: 300, historyListMs: 20 },
  };
  writeFileSync(OUT, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`raw figures: ${path.relative(ROOT, OUT)}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void teardown().finally(() => process.exit(130)));
main().catch(async (err) => {
  console.error(err);
  for (const c of children)
    if (c.log.length) console.error(`--- ${c.name} (last lines) ---\n${c.log.slice(-20).join('\n')}`);
  await teardown();
  process.exitCode = 1;
});
