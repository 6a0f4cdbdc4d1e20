import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';

// The primary of `npm start` with several workers, against stand-in workers (scripts/fixtures): worker 1
// starts alone with the start-up duties, the others after it is ready; all share the port; a killed
// worker is started again, without the duties; SIGTERM reaches every worker and the primary exits 0.

const here = import.meta.dirname;
let primary: ChildProcess | undefined;
after(() => primary?.kill('SIGKILL'));

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

type Answer = { pid: number; worker: string; duties: boolean };
async function ask(port: number): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}/`);
  return (await res.json()) as Answer;
}

test('workers start in order, share the port, restart without duties, and drain on SIGTERM', async () => {
  const port = await freePort();
  const driver = `
    import { serveWithWorkers } from ${JSON.stringify(join(here, 'cluster-primary.mjs'))};
    serveWithWorkers({ count: 3, exec: ${JSON.stringify(join(here, 'fixtures', 'stand-in-worker.mjs'))},
      args: ['start', '-p', '${port}'], execArgv: [], port: '${port}' });`;
  primary = spawn(process.execPath, ['--input-type=module', '-e', driver], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  // Resolves once `text` has shown up in the primary's output `times` times.
  const count = (text: RegExp) => [...log.matchAll(new RegExp(text, 'g'))].length;
  const waiters: Array<{ text: RegExp; times: number; resolve: () => void }> = [];
  const onData = (chunk: Buffer) => {
    log += chunk.toString();
    for (const w of waiters.filter((w) => count(w.text) >= w.times)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  primary.stdout?.on('data', onData);
  primary.stderr?.on('data', onData);
  const seen = (text: RegExp, times = 1) =>
    count(text) >= times
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ text, times, resolve }));

  await seen(/all 3 workers ready/);
  const starts = [...log.matchAll(/worker (\d)\/3 started \(pid (\d+)\)/g)];
  assert.deepEqual(
    starts.map((m) => m[1]),
    ['1', '2', '3'],
  );
  assert.match(log, /worker 1\/3 started \(pid \d+\), migrating the database before the others start/);
  const pids = new Map(starts.map((m) => [m[1], Number(m[2])]));

  // Connections are spread over the workers; only worker 1 has the start-up duties.
  const answers: Answer[] = [];
  for (let i = 0; i < 12; i++) answers.push(await ask(port));
  assert.ok(new Set(answers.map((a) => a.pid)).size >= 2, JSON.stringify(answers));
  for (const a of answers) assert.equal(a.duties, a.worker === '1', JSON.stringify(a));

  // A crashed worker is started again, without the duties; the service stays up meanwhile.
  process.kill(pids.get('2')!, 'SIGKILL');
  await seen(/worker 2 stopped \(SIGKILL\); starting it again in 1 s/);
  assert.ok((await ask(port)).pid !== pids.get('2'));
  await seen(/worker 2\/3 started \(pid \d+\)/, 2);
  const restarted = Number([...log.matchAll(/worker 2\/3 started \(pid (\d+)\)/g)].at(-1)?.[1]);
  assert.notEqual(restarted, pids.get('2'));
  // Once it listens, the round-robin reaches it (until then the others answer; the test timeout guards).
  let fromRestarted: Answer | undefined;
  while (!fromRestarted) {
    const a = await ask(port);
    if (a.pid === restarted) fromRestarted = a;
    else assert.notEqual(a.pid, pids.get('2'));
  }
  assert.deepEqual(fromRestarted, { pid: restarted, worker: '2', duties: false });

  // SIGTERM: every worker drains, then the primary exits 0.
  const exited = once(primary, 'exit');
  primary.kill('SIGTERM');
  const [code] = await exited;
  assert.equal(code, 0, log);
  for (const id of ['1', '2', '3']) assert.match(log, new RegExp(`stand-in ${id} drained on SIGTERM`));
  primary = undefined;
});
