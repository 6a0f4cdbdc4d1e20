/**
 * CPU per chat turn, in process (issue 19: "≤ 3 ms of CPU per turn before the provider request",
 * "≤ 20 ms CPU per paced 200-word turn").
 *
 * Runs the real turn pipeline (app/_server/chat-turn.ts startChatTurn: admission, load, persist input,
 * toolkit prep with the stdio MCP test server `tests`, message conversion, streamText) in this process
 * against a fresh migrated SQLite file and the fake model (e2e/fixtures/fake-openai.mjs, its own process).
 * One turn at a time, so this process's CPU (process.cpuUsage, user+system) is the turn's:
 *  - before the provider request: from calling startChatTurn until the model request is created;
 *    baseline in the same run: a bare AI SDK streamText with the same provider model up to its request;
 *  - per paced 200-word turn (20 ms a word): from the call until the answer is stored and the stream read;
 *    baselines: the same request sent straight to the model with fetch and its body read (reading tokens),
 *    and on a bare TCP socket, its bytes only (the floor: one wake-up and read per token the model sends).
 * Turns go to existing conversations (their first turn, which also asks for a title, is warm-up).
 * Measurements only, never pass/fail; the machine may be shared and noisy, hence CPU, not wall time.
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/turn-cpu.ts [BURST_TURNS] [PACED_TURNS]
 */
import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInProcessApp } from './in-process-app';
import { ms, percentile, table } from './stats';

const BURST_TURNS = Number(process.argv[2] ?? 200);
const PACED_TURNS = Number(process.argv[3] ?? 20);
const CONVERSATIONS = 20;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The CPU reading when the model request was last created (the provider request is being sent): undici
 * announces each request it creates, whether through fetch or its request API (lib/chat/provider-fetch.ts).
 */
let atFetch = Number.NaN;
let modelUrl = '';
diagnostics.subscribe('undici:request:create', (message) => {
  const { request } = message as { request: { origin: string; path: string } };
  if (modelUrl && `${request.origin}${request.path}`.startsWith(modelUrl) && Number.isNaN(atFetch))
    atFetch = cpu();
});

async function main() {
  const app = await startInProcessApp('turn-cpu');
  try {
    const { port } = app;
    modelUrl = app.modelUrl;
    const me = app.user;
    const { modelSources } = await import('@/app/_server/model-sources');
    const { resolveModel } = await import('@/lib/providers');
    const { streamText } = await import('ai');

    let seq = 0;
    const turn = async (conversation: string, text: string) => {
      atFetch = Number.NaN;
      const c0 = cpu();
      const res = await app.startTurn({
        id: conversation,
        message: { id: `m-${++seq}`, role: 'user', parts: [{ type: 'text', text }] },
      });
      const body = await res.text();
      const c1 = cpu();
      if (!body.includes('"type":"finish"')) throw new Error(`turn did not finish: ${body.slice(-300)}`);
      // the answer is stored and the turn ended when the stream closes; let any follow-up (title) settle
      return { before: atFetch - c0, total: c1 - c0 };
    };
    const convs = Array.from({ length: CONVERSATIONS }, (_, i) => `bench-conv-${i}`);
    for (const c of convs) await turn(c, '[[words:20]]');
    await sleep(500); // titles of the warm-up turns
    for (let i = 0; i < 20; i++) await turn(convs[i % CONVERSATIONS]!, '[[words:200]]');

    const resolved = resolveModel(await modelSources(), undefined, me);
    if (!resolved) throw new Error('no model');
    const bare = async () => {
      atFetch = Number.NaN;
      const c0 = cpu();
      const r = streamText({ model: resolved.model, prompt: 'Hi [[words:200]]' });
      await r.consumeStream();
      return atFetch - c0;
    };
    for (let i = 0; i < 20; i++) await bare();

    const before: number[] = [];
    const baseBefore: number[] = [];
    const burstTotal: number[] = [];
    for (let i = 0; i < BURST_TURNS; i++) {
      const t = await turn(convs[i % CONVERSATIONS]!, '[[words:200]]');
      before.push(t.before);
      burstTotal.push(t.total);
      baseBefore.push(await bare());
    }
    const paced: number[] = [];
    const basePaced: number[] = [];
    for (let i = 0; i < PACED_TURNS; i++) {
      paced.push((await turn(convs[i % CONVERSATIONS]!, '[[words:200]] [[slow:20]]')).total);
      const c0 = cpu();
      const r = await fetch(`${modelUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-key' },
        body: JSON.stringify({
          model: 'fake-model',
          stream: true,
          messages: [{ role: 'user', content: '[[words:200]] [[slow:20]]' }],
        }),
      });
      await r.text();
      basePaced.push(cpu() - c0);
    }
    // The floor: the same paced answer's bytes read from a bare socket, nothing parsed.
    const rawPaced: number[] = [];
    const rawBody = JSON.stringify({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content: '[[words:200]] [[slow:20]]' }],
    });
    for (let i = 0; i < PACED_TURNS; i++) {
      const c0 = cpu();
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write(
            `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer sk-bench-key\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(rawBody)}\r\n\r\n${rawBody}`,
          ),
        );
        socket.on('data', () => {});
        socket.on('end', () => resolve());
        socket.on('error', reject);
      });
      rawPaced.push(cpu() - c0);
    }
    const idle: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c0 = cpu();
      await sleep(4300);
      idle.push(cpu() - c0);
    }
    const row = (name: string, xs: number[]) => [
      name,
      String(xs.length),
      ms(percentile(xs, 50)),
      ms(percentile(xs, 95)),
    ];
    console.log(
      `\nCPU per turn (ms of user+system CPU in this process; one turn at a time; ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})\n`,
    );
    console.log(
      table(
        ['measure', 'n', 'p50', 'p95'],
        [
          row('before the provider request (startChatTurn → request)', before),
          row('  baseline: bare streamText → request', baseBefore),
          row('burst 200-word turn, whole', burstTotal),
          row('paced 200-word turn (20 ms/word), whole', paced),
          row('  baseline: same request by fetch, body read', basePaced),
          row('  floor: same answer read from a bare TCP socket', rawPaced),
          row("  idle process over 4.3 s (a paced turn's length)", idle),
        ],
      ),
    );
  } finally {
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
