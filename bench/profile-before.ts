/**
 * Where the CPU before the provider request goes (issue 19: "profile the work before the provider request
 * is sent"). Runs the real turn pipeline in this process as bench/turn-cpu.ts does (a fresh migrated
 * SQLite file, the stdio MCP test server, the fake model in its own process), with V8's sampling profiler
 * on, and counts only the samples taken between a turn's start (startChatTurn) and the moment its model
 * request is created. Prints self time by package or app file, and inclusive time by app file (what each
 * of our modules costs with everything it calls).
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/profile-before.ts [TURNS] [new|existing]
 *
 * `new`: each turn starts a conversation (as a burst of new chats does); `existing` (default): turns go to
 * 20 existing conversations.
 */
import diagnostics from 'node:diagnostics_channel';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInProcessApp } from './in-process-app';
import { topRows } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');

const TURNS = Number(process.argv[2] ?? 300);
const MODE = process.argv[3] ?? 'existing';
/** Optional: an app file whose samples are broken down by the function they were taken in. */
const FOCUS = process.argv[4];
if (MODE !== 'new' && MODE !== 'existing') throw new Error('mode must be new or existing');

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

/** µs on the clock V8's profile timestamps use (the monotonic clock). */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const windows: Array<[number, number]> = [];
let openedAt = Number.NaN;
let modelUrl = '';
diagnostics.subscribe('undici:request:create', (message) => {
  const { request } = message as { request: { origin: string; path: string } };
  if (modelUrl && `${request.origin}${request.path}`.startsWith(modelUrl) && !Number.isNaN(openedAt)) {
    windows.push([openedAt, nowUs()]);
    openedAt = Number.NaN;
  }
});

/** Who a frame belongs to: a package, one of our files (relative), or node internals / native. */
function owner(url: string): string {
  if (!url) return '(native / gc)';
  if (url.startsWith('node:')) return 'node internals';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  return url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
}

function summarize(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfBy = new Map<string, number>();
  const inclusiveBy = new Map<string, number>();
  const focusBy = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  let w = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    while (w < windows.length && windows[w]![1] < t) w++;
    const win = windows[w];
    if (!win || t < win[0]) continue;
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') continue;
    total += dt;
    const self =
      leaf.callFrame.functionName === '(garbage collector)'
        ? '(garbage collector)'
        : owner(leaf.callFrame.url);
    selfBy.set(self, (selfBy.get(self) ?? 0) + dt);
    // Inclusive: each of our files on the stack counts the sample once.
    const seen = new Set<string>();
    if (FOCUS) {
      for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
        if (owner(byId.get(id)!.callFrame.url) !== FOCUS) continue;
        const f = leaf.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${owner(f.url)}:${f.lineNumber + 1}`;
        focusBy.set(key, (focusBy.get(key) ?? 0) + dt);
        break;
      }
    }
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const { url } = byId.get(id)!.callFrame;
      if (!url || url.startsWith('node:') || url.includes('/node_modules/')) continue; // ours only
      const o = owner(url);
      if (seen.has(o)) continue;
      seen.add(o);
      inclusiveBy.set(o, (inclusiveBy.get(o) ?? 0) + dt);
    }
  }
  const top = (m: Map<string, number>, k: number) =>
    topRows(m, k, total, (us) => `${(us / 1000 / windows.length).toFixed(3).padStart(8)} ms/turn`);
  return {
    perTurn: total / 1000 / windows.length,
    self: top(selfBy, 25),
    inclusive: top(inclusiveBy, 25),
    focus: top(focusBy, 25),
  };
}

async function main() {
  const app = await startInProcessApp('profile-before');
  const session = new Session();
  try {
    modelUrl = app.modelUrl;
    let seq = 0;
    const turn = async (conversation: string, measured: boolean) => {
      if (measured) openedAt = nowUs();
      const res = await app.startTurn({
        id: conversation,
        message: { id: `m-${++seq}`, role: 'user', parts: [{ type: 'text', text: '[[words:200]]' }] },
      });
      const body = await res.text();
      if (!body.includes('"type":"finish"')) throw new Error(`turn did not finish: ${body.slice(-300)}`);
    };
    const convs = Array.from({ length: 20 }, (_, i) => `profile-conv-${i}`);
    for (const c of convs) await turn(c, false);
    for (let i = 0; i < 40; i++) await turn(MODE === 'new' ? `warm-${i}` : convs[i % 20]!, false);
    await sleep(500); // titles of the first turns
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    for (let i = 0; i < TURNS; i++) await turn(MODE === 'new' ? `new-${i}` : convs[i % 20]!, true);
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    const s = summarize(profile);
    console.log(
      `\n${windows.length} turns (${MODE} conversations): ${s.perTurn.toFixed(3)} ms/turn sampled before the provider request\n\nself time by package or file:\n${s.self.join('\n')}\n\ninclusive time by app file:\n${s.inclusive.join('\n')}${FOCUS ? `\n\nunder ${FOCUS}, by the function sampled:\n${s.focus.join('\n')}` : ''}`,
    );
  } finally {
    session.disconnect();
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
