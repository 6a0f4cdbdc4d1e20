/**
 * CPU profile of the server during chat turns (issue 7: "profile first").
 *
 * Starts the fake model and the production build with `--cpu-prof`, runs ROUNDS rounds of N concurrent
 * turns (200 words at once or paced at 20 ms a word, or a turn with one MCP tool call) through POST /api/chat, stops the server gracefully (the profile is written on
 * exit) and prints the functions with the most self time, and self time per package.
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/profile-chat.ts [N] [ROUNDS] [burst|paced|tool]
 *
 * Only samples taken during the measured rounds count (no startup, warm-up or shutdown), and bundled
 * frames are attributed to their original file or package through the build's source maps.
 * The raw .cpuprofile is kept in bench/profiles/ (open it in Chrome DevTools → Performance).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_STREAM, closeAgents, signUpBenchAdmin, timedStream } from './chat-turn-http';
import {
  type Child,
  nextStartArgv,
  cpuMs,
  findNextServerPid,
  freePort,
  startChild,
  startFakeModel,
  stopChild,
  waitForHttp,
} from './chat-turn-procs';
import { topRows } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(import.meta.dirname, 'profiles');
const N = Number(process.argv[2] ?? 10);
const ROUNDS = Number(process.argv[3] ?? 20);
/** burst: all 200 words at once; paced: one word every 20 ms; tool: one warm MCP tool call (`tests` add), then a short answer. */
const TEXTS = {
  burst: '[[words:200]]',
  paced: '[[words:200]] [[slow:20]]',
  tool: 'Add [[tool:add:{"a":1,"b":2}]]',
  short: '[[say:Tool results: 3]]',
};
const MODE = (process.argv[4] ?? 'burst') as keyof typeof TEXTS;
if (!(MODE in TEXTS)) throw new Error(`mode must be one of ${Object.keys(TEXTS).join(', ')}`);

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
/** The measured rounds on the monotonic clock, in µs (V8's profile timestamps use the same clock). */
const window = { from: 0, to: Number.POSITIVE_INFINITY };
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const sourceMaps = new Map<string, SourceMap | null>();
/** A bundled position's original source file (the build's source maps), or undefined without a map. */
function originalSource(url: string, line: number, column: number): string | undefined {
  if (!sourceMaps.has(url)) {
    const file = `${fileURLToPath(url)}.map`;
    sourceMaps.set(url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null);
  }
  const entry = sourceMaps.get(url)?.findEntry(line, column);
  return entry && 'originalSource' in entry ? decodeURIComponent(entry.originalSource) : undefined;
}

/** Where a frame's code comes from: a package name, the app's own file (through the build's source maps), or node internals. */
function owner({ url, lineNumber, columnNumber }: Node['callFrame']): string {
  if (!url) return '(native / gc / idle)';
  if (url.startsWith('node:')) return 'node internals';
  const source = url.includes('.next/server/') ? (originalSource(url, lineNumber, columnNumber) ?? url) : url;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (m) return m[1]!;
  if (source.includes('.next/server/')) return 'app chunks (no source map)';
  return source
    .replace(/^file:\/\//, '')
    .replace(`${ROOT}/`, '')
    .replace(/^(\.\.\/)+/, '');
}

function summarize(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Only the measured rounds: startup, module loading, warm-up and shutdown are left out.
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < window.from || t > window.to) continue;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const { functionName, lineNumber } = frame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += us;
    const key = `${functionName || '(anonymous)'}  ${owner(frame)}:${lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const p = functionName === '(garbage collector)' ? '(garbage collector)' : owner(frame);
    pkg.set(p, (pkg.get(p) ?? 0) + us);
  }
  const top = (m: Map<string, number>, k: number) =>
    topRows(m, k, total, (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`);
  return { totalMs: total / 1000, functions: top(fn, 40), packages: top(pkg, 20) };
}

async function main() {
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID')))
    throw new Error('No production build: run `next build` first.');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'chat-profile-'));
  mkdirSync(OUT_DIR, { recursive: true });
  const appPort = await freePort();
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const children: Child[] = [];
  try {
    const { fake, url: fakeUrl } = await startFakeModel(ROOT, env);
    children.push(fake);
    const appUrl = `http://127.0.0.1:${appPort}`;
    const serverEnv: NodeJS.ProcessEnv = {
      ...env,
      NODE_ENV: 'production',
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${tmp}/prof`,
      DATABASE_PATH: path.join(tmp, 'app.db'),
      APP_URL: appUrl,
      OPENAI_BASE_URL: `${fakeUrl}/v1`,
      OPENAI_API_KEY: 'sk-bench-key',
      CHAT_MODEL: 'fake-model',
      MCP_SERVERS_FILE: 'e2e/fixtures/mcp-servers.e2e.json',
    };
    delete serverEnv.AUTH_SECRET;
    const app = startChild('next start', nextStartArgv(appPort), serverEnv, ROOT);
    children.push(app);
    await waitForHttp(`${appUrl}/api/health`, app, 60_000);
    const server = findNextServerPid(app.proc.pid!).pid;
    const auth = await signUpBenchAdmin(appUrl);
    let seq = 0;
    const turn = () => {
      const id = `profile-${process.pid}-${++seq}`;
      return timedStream(
        `${appUrl}/api/chat`,
        { id, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text: TEXTS[MODE] }] } },
        auth,
        MODE === 'tool' || MODE === 'short'
          ? MODE === 'short'
            ? APP_STREAM('results: ')
            : APP_STREAM('results: ', ['"type":"tool-output-available"'])
          : APP_STREAM('word200'),
      );
    };
    for (let i = 0; i < 20; i++) await turn();
    const c0 = cpuMs(server);
    window.from = nowUs();
    const ttft: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of await Promise.all(Array.from({ length: N }, turn))) {
        if (!t.ok) throw new Error(t.problem);
        ttft.push(t.ttftMs);
      }
    }
    window.to = nowUs();
    const turns = N * ROUNDS;
    ttft.sort((a, b) => a - b);
    console.log(
      `${turns} ${MODE} turns (N=${N}): server CPU ${((cpuMs(server) - c0) / turns).toFixed(1)} ms/turn, TTFT p50 ${ttft[Math.floor(turns / 2)]!.toFixed(1)} ms`,
    );
  } finally {
    for (const c of children.reverse()) await stopChild(c, 10_000);
    closeAgents();
  }
  const files = existsSync(`${tmp}/prof`) ? readdirSync(`${tmp}/prof`) : [];
  // The busiest profile is the serving process (`next start` may fork a worker).
  const profiles = files.map((f) => ({
    f,
    p: JSON.parse(readFileSync(`${tmp}/prof/${f}`, 'utf8')) as Profile,
  }));
  const best = profiles
    .map((x) => ({ ...x, s: summarize(x.p) }))
    .sort((a, b) => b.s.totalMs - a.s.totalMs)[0];
  if (!best) throw new Error('no profile written (did the server exit gracefully?)');
  const kept = path.join(OUT_DIR, `chat-${Date.now()}.cpuprofile`);
  copyFileSync(`${tmp}/prof/${best.f}`, kept);
  console.log(
    `\nbusy CPU in profile: ${best.s.totalMs.toFixed(0)} ms\n\nself time by package:\n${best.s.packages.join('\n')}\n\ntop functions (self):\n${best.s.functions.join('\n')}`,
  );
  console.log(`\nprofile: ${path.relative(ROOT, kept)}`);
  rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
