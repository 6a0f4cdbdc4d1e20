/**
 * MCP pool overhead benchmark.
 *
 * Measures, in one run:
 *  1. Warm tool calls through McpPool vs the same call on a bare SDK Client, over
 *     - stdio:     the test fixture's `add {a:2,b:3}` (e2e/fixtures/test-mcp-server.mjs, spawned with this Node);
 *     - in-memory: the builtin calculator's `evaluate {expression:'1+1'}` (pool: a `builtin` config;
 *                  bare: createCalculatorServer() over InMemoryTransport.createLinkedPair()).
 *     200 warm-up calls, then N=2000 sequential timed calls per side, run in alternating blocks of
 *     100 (pool, bare, pool, bare, …) so machine noise hits both alike. Reports p50, p95, mean and the
 *     overhead (pool − bare) of p50 and mean.
 *  2. Cold connect over stdio: `new McpConnection(config)` → first successful listTools() (spawn +
 *     initialize + tools/list) vs a bare Client connect + listTools; median of 10, interleaved.
 *  3. The target — "the pool adds under 1 ms per warm call" — checked per transport on p50.
 * Prints a table and writes the raw samples (ms) to bench/mcp-pool.json.
 *
 * Run (project's Node 22):
 *   cd /work/main && ./node_modules/.bin/node --import tsx --conditions=react-server bench/mcp-pool.ts
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCalculatorServer } from '@/lib/mcp/builtin/calculator';
import { McpConnection } from '@/lib/mcp/connection';
import { McpPool } from '@/lib/mcp/pool';
import type { McpServerConfig } from '@/lib/schemas/mcp';
import { median, ms, type Summary, summarize, table } from './stats';

/** Every server here is open to everyone; the pool still needs to know who is asking. */
const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };

const WARMUP = 200;
const N = 2000;
const BLOCK = 100;
const COLD_RUNS = 10;
const TARGET_MS = 1;

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.join(ROOT, 'e2e/fixtures/test-mcp-server.mjs');
const OUT = path.join(import.meta.dirname, 'mcp-pool.json');

const stdioConfig: McpServerConfig = {
  name: 'test',
  transport: 'stdio',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  command: process.execPath,
  args: [FIXTURE, 'stdio'],
  env: {},
  cwd: null,
  enabled: true,
  timeoutMs: 60_000,
};
const calcConfig: McpServerConfig = {
  name: 'calculator',
  transport: 'builtin',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  builtin: 'calculator',
  enabled: true,
  timeoutMs: 60_000,
};

type Call = () => Promise<unknown>;

/** Runs `fn` n times sequentially, pushing each call's duration (ms) into `out`. */
async function timeCalls(fn: Call, n: number, out: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
}

/** Warm-up then N timed calls per side, alternating blocks of BLOCK: pool, bare, pool, bare, … */
async function interleaved(pool: Call, bare: Call): Promise<{ pool: number[]; bare: number[] }> {
  const discard: number[] = [];
  for (let done = 0; done < WARMUP; done += BLOCK) {
    await timeCalls(pool, BLOCK, discard);
    await timeCalls(bare, BLOCK, discard);
  }
  const out = { pool: [] as number[], bare: [] as number[] };
  for (let done = 0; done < N; done += BLOCK) {
    await timeCalls(pool, BLOCK, out.pool);
    await timeCalls(bare, BLOCK, out.bare);
  }
  return out;
}

/** Fails loudly if a call did not return the expected text (a benchmark of errors is worthless). */
async function expectText(call: Call, expected: string, label: string): Promise<void> {
  const res = (await call()) as CallToolResult;
  const first = res.content?.[0];
  const text = first?.type === 'text' ? first.text : undefined;
  if (res.isError || !text?.includes(expected))
    throw new Error(`${label}: unexpected result ${JSON.stringify(res)}`);
}

const bareClient = () => new Client({ name: 'bench-bare', version: '0.0.0' });
const bareStdioTransport = () =>
  new StdioClientTransport({ command: process.execPath, args: [FIXTURE, 'stdio'], stderr: 'pipe' });

async function main(): Promise<void> {
  // --- Set up warm connections: one pool holding both servers, two bare clients. ---
  const pool = new McpPool();
  pool.sync([stdioConfig, calcConfig]);
  for (const r of await pool.forUser(tester).tools(undefined, 30_000)) if ('error' in r) throw r.error;

  const bareStdio = bareClient();
  await bareStdio.connect(bareStdioTransport());
  await bareStdio.listTools(); // same state as the pool's client (tool list / output validators cached)

  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCalculatorServer().connect(serverSide);
  const bareMem = bareClient();
  await bareMem.connect(clientSide);
  await bareMem.listTools();

  const calls = {
    stdio: {
      pool: () => pool.forUser(tester).callTool('test', 'add', { a: 2, b: 3 }),
      bare: () => bareStdio.callTool({ name: 'add', arguments: { a: 2, b: 3 } }),
      expected: '5',
    },
    'in-memory': {
      pool: () => pool.forUser(tester).callTool('calculator', 'evaluate', { expression: '1+1' }),
      bare: () => bareMem.callTool({ name: 'evaluate', arguments: { expression: '1+1' } }),
      expected: '= 2',
    },
  };

  type WarmResult = {
    pool: Summary;
    bare: Summary;
    overhead: { p50: number; mean: number };
    samples: { pool: number[]; bare: number[] };
  };
  const warm: Record<string, WarmResult> = {};
  try {
    for (const [transport, c] of Object.entries(calls)) {
      await expectText(c.pool, c.expected, `${transport} pool`);
      await expectText(c.bare, c.expected, `${transport} bare`);
      const samples = await interleaved(c.pool, c.bare);
      const p = summarize(samples.pool);
      const b = summarize(samples.bare);
      warm[transport] = {
        pool: p,
        bare: b,
        overhead: { p50: p.p50 - b.p50, mean: p.mean - b.mean },
        samples,
      };
    }
  } finally {
    await Promise.all([pool.closeAll(), bareStdio.close(), bareMem.close()]);
  }

  // --- Cold connect over stdio: spawn + initialize + tools/list, interleaved pool / bare. ---
  const cold = { pool: [] as number[], bare: [] as number[] };
  for (let i = 0; i < COLD_RUNS; i++) {
    let t0 = performance.now();
    const conn = new McpConnection(stdioConfig);
    try {
      await conn.listTools();
      cold.pool.push(performance.now() - t0);
    } finally {
      await conn.close();
    }
    t0 = performance.now();
    const client = bareClient();
    try {
      await client.connect(bareStdioTransport());
      await client.listTools();
      cold.bare.push(performance.now() - t0);
    } finally {
      await client.close();
    }
  }

  // --- Report. ---
  const rows: string[][] = [];
  for (const [transport, r] of Object.entries(warm)) {
    rows.push([
      `warm ${transport} — pool`,
      ms(r.pool.p50),
      ms(r.pool.p95),
      ms(r.pool.mean),
      String(r.pool.n),
    ]);
    rows.push([
      `warm ${transport} — bare Client`,
      ms(r.bare.p50),
      ms(r.bare.p95),
      ms(r.bare.mean),
      String(r.bare.n),
    ]);
    rows.push([
      `warm ${transport} — overhead (pool − bare)`,
      ms(r.overhead.p50),
      '',
      ms(r.overhead.mean),
      '',
    ]);
  }
  const coldPool = median(cold.pool);
  const coldBare = median(cold.bare);
  rows.push(['cold stdio connect+listTools — pool', ms(coldPool), '', '', `${COLD_RUNS} (median)`]);
  rows.push(['cold stdio connect+listTools — bare Client', ms(coldBare), '', '', `${COLD_RUNS} (median)`]);
  rows.push(['cold stdio — overhead (pool − bare)', ms(coldPool - coldBare), '', '', '']);

  console.log(
    `\nMCP pool benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu?'} ×${os.cpus().length}; all times in ms\n`,
  );
  console.log(table(['measurement', 'p50', 'p95', 'mean', 'n'], rows));
  console.log('');
  for (const [transport, r] of Object.entries(warm)) {
    const verdict = r.overhead.p50 < TARGET_MS ? 'met' : 'missed';
    console.log(
      `${transport}: pool overhead per warm call (p50): ${ms(r.overhead.p50)} ms — target < ${TARGET_MS} ms: ${verdict}`,
    );
  }

  const round = (xs: number[]) => xs.map((x) => Math.round(x * 1e6) / 1e6);
  const json = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpu: os.cpus()[0]?.model,
      cpus: os.cpus().length,
      unit: 'ms',
      warmup: WARMUP,
      n: N,
      block: BLOCK,
      coldRuns: COLD_RUNS,
      targetMs: TARGET_MS,
    },
    warm: Object.fromEntries(
      Object.entries(warm).map(([t, r]) => [
        t,
        {
          ...r,
          met: r.overhead.p50 < TARGET_MS,
          samples: { pool: round(r.samples.pool), bare: round(r.samples.bare) },
        },
      ]),
    ),
    cold: {
      stdio: {
        pool: { median: coldPool, samples: round(cold.pool) },
        bare: { median: coldBare, samples: round(cold.bare) },
        overheadMedian: coldPool - coldBare,
      },
    },
  };
  writeFileSync(OUT, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nraw figures: ${path.relative(ROOT, OUT)}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
