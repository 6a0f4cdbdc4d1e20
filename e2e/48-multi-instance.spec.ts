// Issue 19 / SPEC §7.5: two app instances on one Postgres and one Redis (real servers started here, on
// free loopback ports), and nginx in front of them with the balancer setting of docs/nginx.conf. A turn
// started on A is read and stopped from B; an admin change on A holds on B at once; a rate limit counts
// both; a tool's question, a title and a server's logs reach across; a user's per-user MCP server keeps
// one process behind the sticky balancer and a disconnect ends it everywhere; killing an instance
// mid-turn loses no stored question and its answer ends up marked interrupted.
import { resolve } from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { streamChunks } from './helpers';
import {
  alive,
  attachLogsOnFailure,
  chatBody,
  newId,
  running,
  signedIn as signedInAt,
  signUpAdmin,
  startTwoInstances,
  stopTwoInstances,
  storedRoles,
  streamTurn as streamInstanceTurn,
  textOf,
  type TwoInstances,
} from './multi-instance-helpers';
import { rich } from './rich-chat';

test.describe.configure({ mode: 'serial' });

const ADMIN = { name: 'Multi Admin', email: 'admin-s48@example.com', password: 'admin-password-48' };

let stack: TwoInstances;
let a: TwoInstances['a'];
let b: TwoInstances['b'];
let lb: TwoInstances['lb'];
/** The URL every instance calls its own (APP_URL): the balancer's. Requests name it as their Origin. */
let appUrl = '';
let admin: APIRequestContext;

const signedIn = (account: typeof ADMIN, base: string) => signedInAt(account, base, appUrl);

/** A chat turn's SSE, read as it streams (the balancer's address as Origin). */
const streamTurn = (
  ctx: APIRequestContext,
  url: string,
  init: RequestInit = {},
  onText?: (soFar: string) => void,
) => streamInstanceTurn(ctx, url, appUrl, init, onText);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startTwoInstances('data/e2e-multi');
  ({ a, b, lb, appUrl } = stack);
  admin = await signUpAdmin(stack, ADMIN);
  expect((await admin.patch('/api/admin/settings', { data: { chatRequestsPerMinute: 1000 } })).status()).toBe(
    200,
  );
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright wants the fixtures argument first
test.afterEach(({}, testInfo) => attachLogsOnFailure(stack, testInfo));

test.afterAll(async () => {
  await admin?.dispose();
  await stopTwoInstances(stack ?? {});
});

test('a turn started on A is read on B from its start and live; Stop on B stops it, and the answer is stored interrupted', async () => {
  const id = newId('s48-turn');
  const own = streamTurn(admin, `${a.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify(chatBody(id, 'Two instances [[words:300]] [[slow:30]]')),
  });
  await expect.poll(() => running(admin, b.url, id)).toBe(true);
  // A second turn in the same conversation is refused on B too (A holds it).
  expect((await admin.post(`${b.url}/api/chat`, { data: chatBody(id, 'me too') })).status()).toBe(409);
  const replay = streamTurn(admin, `${b.url}/api/chat/${id}/stream`);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(await (await admin.post(`${b.url}/api/chat/${id}/stop`)).json()).toMatchObject({ stopped: true });
  const [mine, theirs] = await Promise.all([own, replay]);
  expect(textOf(theirs).length).toBeGreaterThan(0);
  expect(textOf(theirs)).toBe(textOf(mine));
  expect(textOf(mine).split(' ').length).toBeLessThan(300);
  expect(await running(admin, b.url, id)).toBe(false);
  expect(await storedRoles(admin, b.url, id)).toEqual(['user', 'assistant (interrupted)']);
});

test('a question a tool asks in a turn on A is answered through B (another worker, another device): checked there, counted once, and the tool gets the answer; the server’s logs page shows both instances', async () => {
  const created = await admin.post(`${a.url}/api/mcp/servers`, { data: rich('s48ask') });
  expect(created.status(), await created.text()).toBe(201);
  const id = newId('s48-ask');
  let shown!: (requestId: string) => void;
  const requestId = new Promise<string>((resolve) => (shown = resolve));
  const turn = streamTurn(
    admin,
    `${a.url}/api/chat`,
    { method: 'POST', body: JSON.stringify(chatBody(id, '[[tool:s48ask__ask_details]]')) },
    (soFar) => {
      const found = /"type":"data-elicitation","id":"(req-[^"]+)"/.exec(soFar);
      if (found?.[1]) shown(found[1]);
    },
  );
  try {
    const answerUrl = `${b.url}/api/chat/${id}/requests/${await requestId}`;
    const bad = await admin.post(answerUrl, {
      data: { action: 'accept', content: { name: 'Ada', email: 'nope', size: 'medium' } },
    });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.fields).toMatchObject({ 'content.email': 'Enter an email address.' });
    const good = await admin.post(answerUrl, {
      data: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', size: 'medium' } },
    });
    expect(good.status(), await good.text()).toBe(200);
    for (const base of [a.url, b.url])
      expect(
        (await admin.post(answerUrl.replace(b.url, base), { data: { action: 'decline' } })).status(),
      ).toBe(409);
    const output = streamChunks(await turn).find((c) => c.type === 'tool-output-available')?.output as
      | { content: Array<{ text: string }> }
      | undefined;
    expect(output?.content[0]?.text).toContain('Submitted: {"name":"Ada","email":"ada@example.com"');
    // A request no instance holds is a 404 from either.
    expect(
      (
        await admin.post(`${b.url}/api/chat/${id}/requests/req-none`, { data: { action: 'decline' } })
      ).status(),
    ).toBe(404);
    // Each instance runs the server in a process of its own: the admin's logs page, asked of either,
    // holds the log messages of both.
    for (const base of [a.url, b.url])
      await admin.post(`${base}/api/chat`, {
        data: chatBody(newId('s48-log'), '[[tool:s48ask__log_burst]]'),
      });
    const logs = await (await admin.get(`${a.url}/api/mcp/servers/${(await created.json()).id}/logs`)).json();
    const bursts = (logs.messages as Array<{ text: string }>).filter((m) =>
      m.text.includes('burst error #1'),
    );
    expect(bursts).toHaveLength(2);
  } finally {
    await admin.delete(`${a.url}/api/mcp/servers/${(await created.json()).id}`);
  }
});

test('the generated title of a first answer on A is waited for on B as well (the chat asks for it wherever its request lands)', async () => {
  const id = newId('s48-title');
  const res = await admin.post(`${a.url}/api/chat`, {
    data: chatBody(id, 'Name me [[title:Two Instance Title]] [[title-delay:1500]]'),
  });
  expect(res.status()).toBe(200);
  await res.body();
  const settled = await (await admin.get(`${b.url}/api/conversations/${id}/summary?wait=1`)).json();
  expect(settled).toMatchObject({ title: 'Two Instance Title', titleSource: 'model' });
});

test('an admin change on A holds on B at once: a demoted admin is refused there, a lowered chat rate and the sign-up limit count both instances, and a sign-out ends the session there', async () => {
  const user = { name: 'Rate S48', email: 'rate-s48@example.com', password: 'rate-password-48' };
  expect((await admin.post(`${a.url}/api/admin/users`, { data: { ...user, role: 'admin' } })).status()).toBe(
    201,
  );
  const users = (await (await admin.get(`${a.url}/api/admin/users`)).json()).items as Array<{
    id: string;
    email: string;
  }>;
  const userId = users.find((u) => u.email === user.email)?.id;
  const ctx = await signedIn(user, b.url);
  try {
    // B has read (and cached) the user, an admin; the admin lowers the rate on A.
    expect((await ctx.get(`${b.url}/api/admin/users`)).status()).toBe(200);
    const setOnA = async (data: Record<string, unknown>) =>
      expect((await admin.patch(`${a.url}/api/admin/settings`, { data })).status()).toBe(200);
    await setOnA({ chatRequestsPerMinute: 4 });
    const statuses: number[] = [];
    for (const base of [a.url, b.url, a.url, b.url, a.url, b.url])
      statuses.push(
        (await ctx.post(`${base}/api/chat`, { data: chatBody(newId('s48-rate'), 'hi') })).status(),
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // The auth routes' own limit (30 sign-ups a minute per address) counts both instances as well.
    // Sign-up is opened for it: closed, it is refused before the library (and its limit) sees it.
    await setOnA({ signupOpen: true });
    const signUps: number[] = [];
    for (let i = 0; i < 32; i++)
      signUps.push(
        await fetch(`${(i % 2 ? b : a).url}/api/auth/sign-up/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: appUrl },
          body: JSON.stringify({ name: 'N', email: `n${i}-s48@example.com`, password: 'password-s48-n' }),
        }).then((r) => r.status),
      );
    await setOnA({ signupOpen: false });
    expect(signUps.slice(0, 28)).not.toContain(429);
    expect(signUps.slice(-2)).toEqual([429, 429]);
    // Demoted on A (the session lives on): B refuses the very next admin request, though it had the user cached.
    expect(
      (await admin.patch(`${a.url}/api/admin/users/${userId}`, { data: { role: 'user' } })).status(),
    ).toBe(200);
    expect((await ctx.get(`${b.url}/api/admin/users`)).status()).toBe(403);
    expect((await ctx.get(`${b.url}/api/conversations`)).status()).toBe(200);
    // Signed out on A: a copy of the cookies is refused by B at once, though B had the session cached.
    const copy = await request.newContext({
      extraHTTPHeaders: { origin: appUrl },
      storageState: await ctx.storageState(),
    });
    try {
      expect((await copy.get(`${b.url}/api/conversations`)).status()).toBe(200);
      expect((await ctx.post(`${a.url}/api/auth/sign-out`, { data: {} })).status()).toBe(200);
      expect((await copy.get(`${b.url}/api/conversations`)).status()).toBe(401);
    } finally {
      await copy.dispose();
    }
  } finally {
    await admin.patch(`${a.url}/api/admin/settings`, { data: { chatRequestsPerMinute: 1000 } });
    await ctx.dispose();
  }
});

test("behind the sticky balancer a user's per-user MCP server is one process whichever request it is; straight to each instance it is two, and a disconnect ends both", async () => {
  const created = await admin.post(`${a.url}/api/mcp/servers`, {
    data: {
      name: 's48mem',
      transport: 'stdio',
      command: 'node',
      args: [resolve('e2e/fixtures/test-mcp-server.mjs'), 'stdio'],
      env: { TEST_MCP_ATTACK_TOOLS: '1' },
      scope: 'user',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const serverId = ((await created.json()) as { id: string }).id;
  const user = { name: 'Mem S48', email: 'mem-s48@example.com', password: 'mem-password-48' };
  expect((await admin.post(`${a.url}/api/admin/users`, { data: { ...user, role: 'user' } })).status()).toBe(
    201,
  );
  const viaLb = await signedIn(user, lb.url);
  const pidVia = async (base: string) => {
    const res = await viaLb.post(`${base}/api/chat`, {
      data: chatBody(newId('s48-mem'), '[[tool:s48mem__process_info:{}]]'),
    });
    expect(res.status()).toBe(200);
    const output = streamChunks(await res.text()).find((c) => c.type === 'tool-output-available')?.output as
      | { content: Array<{ text: string }> }
      | undefined;
    return (JSON.parse(output?.content[0]?.text ?? '{}') as { pid?: number }).pid;
  };
  try {
    const pids = [];
    for (let i = 0; i < 6; i++) pids.push(await pidVia(lb.url));
    expect(pids[0]).toBeGreaterThan(0);
    expect(new Set(pids).size).toBe(1);
    // B is two workers behind `npm start`'s primary, which routes by the same cookie: one process there too.
    const onB = [];
    for (let i = 0; i < 6; i++) onB.push(await pidVia(b.url));
    expect(new Set(onB).size).toBe(1);
    // Without the balancer's stickiness the user's requests reach two processes with two states.
    const direct = [await pidVia(a.url), onB[0]];
    expect(direct[0]).not.toBe(direct[1]);
    expect(direct).toContain(pids[0]);
    // The admin's page of the server lists the user's connections in both instances, whichever answers
    // (and the admin's own, which the page opens to list the tools); each user is counted once.
    for (const base of [a.url, b.url]) {
      const detail = await (await admin.get(`${base}/api/mcp/servers/${serverId}`)).json();
      const emails = detail.connections.map((c: { user: { email: string } }) => c.user.email);
      expect(emails.filter((e: string) => e === user.email)).toHaveLength(2);
      expect(detail.status).toMatchObject({ status: 'connected', users: new Set(emails).size });
    }
    // Disconnecting on A ends the user's server in every instance: both processes exit, B starts a new one.
    expect((await viaLb.delete(`${a.url}/api/mcp/connections/s48mem`)).status()).toBe(200);
    await expect.poll(() => direct.filter(alive)).toEqual([]);
    expect(direct).not.toContain(await pidVia(b.url));
  } finally {
    await viaLb.dispose();
  }
});

test('killing A mid-turn loses no stored question; B marks the answer interrupted once A is gone', async () => {
  test.setTimeout(60_000);
  const id = newId('s48-kill');
  const own = streamTurn(admin, `${a.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify(chatBody(id, 'Cut short [[words:400]] [[slow:50]]')),
  }).catch(() => 'cut');
  await expect.poll(() => running(admin, b.url, id)).toBe(true);
  a.proc.kill('SIGKILL');
  await own;
  await expect
    .poll(() => storedRoles(admin, b.url, id), { timeout: 40_000, intervals: [1_000] })
    .toEqual(['user', 'assistant (interrupted)']);
  // B serves the conversation on: the question is there, and a new turn runs.
  const next = await admin.post(`${b.url}/api/chat`, { data: chatBody(id, 'again') });
  expect(next.status()).toBe(200);
  expect(textOf(await next.text())).toContain('again');
});
