import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ownerOf } from './sticky.mjs';

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

type Answer = { pid: number; worker: string; duties: boolean; body: string; cookie?: string };
/** One request on a connection of its own (with or without a session cookie). */
function ask(port: number, cookie?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = cookie ? { cookie } : undefined;
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false, headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(JSON.parse(text) as Answer));
      })
      .on('error', reject);
  });
}

/** Starts the primary with `count` stand-in workers; `seen` resolves once a line shows up `times` times. */
function startPrimary(count: number, port: number) {
  const driver = `
    import { serveWithWorkers } from ${JSON.stringify(join(here, 'cluster-primary.mjs'))};
    serveWithWorkers({ count: ${count}, exec: ${JSON.stringify(join(here, 'fixtures', 'stand-in-worker.mjs'))},
      args: ['-p', '${port}'], execArgv: [], port: '${port}', host: '127.0.0.1' });`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', driver], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  primary = proc;
  const state = { log: '' };
  const times = (text: RegExp) => [...state.log.matchAll(new RegExp(text, 'g'))].length;
  const waiters: Array<{ text: RegExp; times: number; resolve: () => void }> = [];
  const onData = (chunk: Buffer) => {
    state.log += chunk.toString();
    for (const w of waiters.filter((w) => times(w.text) >= w.times)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  const seen = (text: RegExp, n = 1) =>
    times(text) >= n
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ text, times: n, resolve }));
  return { proc, state, seen };
}

test('workers start in order, share the port, restart without duties, and drain on SIGTERM', async () => {
  const port = await freePort();
  const { proc, state, seen } = startPrimary(3, port);
  primary = proc;
  await seen(/all 3 workers ready/);
  const starts = [...state.log.matchAll(/worker (\d)\/3 started \(pid (\d+)\)/g)];
  assert.deepEqual(
    starts.map((m) => m[1]),
    ['1', '2', '3'],
  );
  assert.match(state.log, /worker 1\/3 started \(pid \d+\), migrating the database before the others start/);
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
  const restarted = Number([...state.log.matchAll(/worker 2\/3 started \(pid (\d+)\)/g)].at(-1)?.[1]);
  assert.notEqual(restarted, pids.get('2'));
  // Once it listens, the round-robin reaches it (until then the others answer; the test timeout guards).
  let fromRestarted: Answer | undefined;
  while (!fromRestarted) {
    const a = await ask(port);
    if (a.pid === restarted) fromRestarted = a;
    else assert.notEqual(a.pid, pids.get('2'));
  }
  assert.deepEqual(
    { ...fromRestarted, body: undefined },
    { pid: restarted, worker: '2', duties: false, body: undefined },
  );

  // SIGTERM: every worker drains, then the primary exits 0.
  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const [code] = await exited;
  assert.equal(code, 0, state.log);
  for (const id of ['1', '2', '3']) assert.match(state.log, new RegExp(`stand-in ${id} drained on SIGTERM`));
  primary = undefined;
});

/** Raw bytes on one connection; resolves with what came back once `until` matches it (or the socket ends). */
function exchange(port: number, writes: Array<string | number>, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
      if (until.test(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    void (async () => {
      for (const w of writes) {
        if (typeof w === 'number') await new Promise((r) => setTimeout(r, w));
        else socket.write(w);
      }
    })();
  });
}

test('a session reaches one worker on every connection; bytes after the head and later requests are not lost', async () => {
  const port = await freePort();
  const { proc, seen } = startPrimary(3, port);
  await seen(/all 3 workers ready/);
  const cookieOf = (session: string) => `theme=dark; better-auth.session_token=${session}; other=1`;

  // Sixty sessions, each on three connections of its own: always the worker its cookie names.
  const owners = new Set<string>();
  for (let i = 0; i < 60; i++) {
    const session = `token-${i}.signature${i}`;
    const answers = await Promise.all([1, 2, 3].map(() => ask(port, cookieOf(session))));
    const expected = String(ownerOf(session, 3) + 1);
    for (const a of answers)
      assert.equal(a.worker, expected, `session ${session}: ${JSON.stringify(answers)}`);
    owners.add(expected);
  }
  assert.equal(owners.size, 3);
  // Also under the https cookie name.
  const secure = 'secure-token.sig';
  assert.equal(
    (await ask(port, `__Secure-better-auth.session_token=${secure}`)).worker,
    String(ownerOf(secure, 3) + 1),
  );

  // A head split over several writes (the cookie in the last), then a body sent 100 ms later: the
  // worker the cookie names gets the whole request.
  const session = 'split-token.sig';
  const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n`;
  const answer = await exchange(
    port,
    [head, 50, `Cookie: ${cookieOf(session)}\r\n`, 50, '\r\n', 100, 'hello'],
    /"cookie"/,
  );
  const json = JSON.parse(answer.slice(answer.indexOf('{')));
  assert.equal(json.worker, String(ownerOf(session, 3) + 1));
  assert.equal(json.body, 'hello');

  // One kept-alive connection: its first request (no session) picks a worker; a later request on it
  // with a session another worker owns is answered, and the connection is then closed, so the next
  // one is routed by that session.
  const first = await ask(port);
  const other = Array.from({ length: 50 }, (_, i) => `move-${i}.sig`).find(
    (s) => String(ownerOf(s, 3) + 1) !== first.worker,
  )!;
  const twice = await exchange(
    port,
    [
      'GET / HTTP/1.1\r\nHost: x\r\n\r\n',
      200,
      `GET / HTTP/1.1\r\nHost: x\r\nCookie: ${cookieOf(other)}\r\n\r\n`,
    ],
    /connection: close[\s\S]*\}$/i,
  );
  const workers = [...twice.matchAll(/"worker":"(\d)"/g)].map((m) => m[1]);
  assert.equal(workers.length, 2, twice);
  assert.equal(workers[0], workers[1], 'both requests of one connection are served where it was routed');
  const [one, two] = twice.split(/(?=HTTP\/1\.1 )/);
  assert.match(one ?? '', /connection: keep-alive/i, twice);
  assert.match(two ?? '', /connection: close/i, twice);
  assert.equal((await ask(port, cookieOf(other))).worker, String(ownerOf(other, 3) + 1));

  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  await exited;
  primary = undefined;
});
