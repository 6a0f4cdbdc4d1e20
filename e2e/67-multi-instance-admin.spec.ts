// Issue 19: what the admin sees of MCP servers when several server processes run (instance A, and B as
// `npm start` with two workers, on one Postgres and Redis): each process holds its own connection of a
// shared server, and the admin pages show them all, whichever process answers; the metrics name every
// process by its instance, with its running answers (what an operator draining an instance waits on).
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  attachLogsOnFailure,
  chatBody,
  newId,
  running,
  signUpAdmin,
  startTwoInstances,
  stopTwoInstances,
  streamTurn,
  type TwoInstances,
} from './multi-instance-helpers';

test.describe.configure({ mode: 'serial' });

const ADMIN = { name: 'Status Admin', email: 'admin-s67@example.com', password: 'admin-password-67' };

let stack: TwoInstances;
let admin: APIRequestContext;
let lockDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startTwoInstances('data/e2e-multi-admin');
  admin = await signUpAdmin(stack, ADMIN);
  lockDir = mkdtempSync(join(tmpdir(), 'e2e-s67-'));
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright wants the fixtures argument first
test.afterEach(({}, testInfo) => attachLogsOnFailure(stack, testInfo));

test.afterAll(async () => {
  await admin?.dispose();
  await stopTwoInstances(stack ?? {});
  if (lockDir) rmSync(lockDir, { recursive: true, force: true });
});

type Listed = {
  name: string;
  status: {
    status: string;
    lastError: { kind: string; message: string } | null;
    processes?: { total: number; connected: number; failing: number };
  };
};
const listedOn = async (base: string, name: string) => {
  const res = await admin.get(`${base}/api/mcp/servers`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Listed[] }).items.find((s) => s.name === name);
};

test('a shared server that connects in one process and fails in the two others shows the failure and the counts, from either instance, in the list and on its page', async ({
  browser,
}) => {
  // A server only one process at a time can run: whichever process starts it first connects; in the
  // others it exits at once with its reason.
  const lock = join(lockDir, 'one-holder');
  const created = await admin.post(`${stack.a.url}/api/mcp/servers`, {
    data: {
      name: 's67once',
      transport: 'stdio',
      command: 'node',
      args: [resolve('e2e/fixtures/test-mcp-server.mjs'), 'stdio'],
      env: { TEST_MCP_EXCLUSIVE: lock },
      scope: 'shared',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // Every process connects a new shared server at once (A on the save, B's workers on the change message).
  for (const base of [stack.a.url, stack.b.url]) {
    await expect
      .poll(async () => (await listedOn(base, 's67once'))?.status, { timeout: 30_000 })
      .toMatchObject({ processes: { total: 3, connected: 1, failing: 2 } });
    const listed = await listedOn(base, 's67once');
    // Before, each process showed only its own connection: the one that started it said "connected".
    expect(listed?.status.status).toBe('error');
    expect(listed?.status.lastError?.message).toContain(`another process holds ${lock}`);
  }

  // The pages say it, on B (the admin's requests there reach one of its workers).
  const context = await browser.newContext({
    baseURL: stack.b.url,
    storageState: await admin.storageState(),
  });
  try {
    const page = await context.newPage();
    await page.goto('/admin/mcp');
    const row = page.locator('[data-server-row="s67once"]');
    await expect(row.locator('[data-status]')).toHaveText('error');
    await expect(row.locator('[data-processes]')).toHaveText(
      'connected in 1 of 3 server processes, failing in 2',
    );
    await expect(row.locator('[data-last-error]')).toContainText('another process holds');
    await page.goto(`/admin/mcp/${encodeURIComponent(id)}`);
    await expect(page.locator('[data-processes]')).toHaveText(
      'connected in 1 of 3 server processes, failing in 2',
    );
    await expect(page.locator('[data-last-error]')).toContainText('another process holds');
  } finally {
    await context.close();
  }

  // The metrics list each process's own connection: an operator's monitoring sees the failing two.
  const statusesOn = async (base: string) => {
    const res = await admin.get(`${base}/api/admin/metrics`);
    const { processes } = (await res.json()) as {
      processes: Array<{ mcp: Array<{ name: string; status: string }> }>;
    };
    return processes.map((p) => p.mcp.find((s) => s.name === 's67once')?.status).sort();
  };
  for (const base of [stack.a.url, stack.b.url])
    await expect.poll(() => statusesOn(base)).toEqual(['connected', 'error', 'error']);

  // Disabled: every process closes its connection; nothing is left to count.
  const off = await admin.patch(`${stack.a.url}/api/mcp/servers/${id}`, {
    data: { enabled: false },
  });
  expect(off.status(), await off.text()).toBe(200);
  for (const base of [stack.a.url, stack.b.url])
    await expect.poll(async () => (await listedOn(base, 's67once'))?.status.status).toBe('disabled');
});

type Figures = { instance: string; pid: number; runningTurns: number };

test('the metrics, asked of either instance, list every server process by its instance with its running answers: a drained instance can be waited for', async () => {
  const id = newId('s67-drain');
  const turn = streamTurn(admin, `${stack.b.url}/api/chat`, stack.appUrl, {
    method: 'POST',
    body: JSON.stringify(chatBody(id, 'Drain me [[words:300]] [[slow:30]]')),
  });
  await expect.poll(() => running(admin, stack.b.url, id)).toBe(true);
  // B is one `npm start`: its workers carry its name (host and the primary's pid); A its own.
  const instanceB = `${hostname()}:${stack.b.proc.pid}`;
  const onB = async (base: string) => {
    const res = await admin.get(`${base}/api/admin/metrics`);
    expect(res.status()).toBe(200);
    const { processes } = (await res.json()) as { processes: Figures[] };
    expect(processes).toHaveLength(3);
    expect(processes.filter((p) => p.instance !== instanceB).map((p) => p.runningTurns)).toEqual([0]);
    const ofB = processes.filter((p) => p.instance === instanceB);
    expect(new Set(ofB.map((p) => p.pid)).size).toBe(2);
    return ofB.reduce((sum, p) => sum + p.runningTurns, 0);
  };
  // Before, the answer was the answering process's alone: from A, B's running answer did not show.
  for (const base of [stack.a.url, stack.b.url]) expect(await onB(base)).toBe(1);
  expect(await (await admin.post(`${stack.b.url}/api/chat/${id}/stop`)).json()).toMatchObject({
    stopped: true,
  });
  await turn;
  await expect.poll(() => onB(stack.a.url)).toBe(0);
});
