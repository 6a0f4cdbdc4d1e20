// Issue 21 × SPEC §7.5: an MCP App's tool call that waits for the user's approval card, across two app
// instances on one Postgres and one Redis (e2e/multi-instance-helpers.ts). The host page asks for the call
// through one instance and the card's answer may reach the other: the pending approval is in Redis
// (lib/shared/app-approvals.ts), taken once wherever the answer lands, so the tool runs exactly once and
// only for the user it was asked for. The app is the apps fixture (e2e/fixtures/test-mcp-server-apps.mjs,
// a stdio server each instance starts for itself); its `app_record` tool asks for approval by default.
// Requests are the host page's (POST /api/mcp-apps/call, the balancer's address as Origin); the runs are
// counted in the admin's audit log (`mcp.app.call` ok), which both instances write to the one database.
import { resolve } from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { ensureUser, specUser } from './accounts';
import {
  attachLogsOnFailure,
  chatBody,
  newId,
  signedIn,
  signUpAdmin,
  startTwoInstances,
  stopTwoInstances,
  type TwoInstances,
} from './multi-instance-helpers';

test.describe.configure({ mode: 'serial' });

const ADMIN = specUser('s66', 'Admin Apps');
const BOB = specUser('s66', 'Bob Apps');
const CAROL = specUser('s66', 'Carol Apps');
const SERVER = 's66apps';
const TOOL = 'app_record';

let stack: TwoInstances;
let A = '';
let B = '';
let admin: APIRequestContext;
let bob: APIRequestContext;
let carol: APIRequestContext;
/** Bob's and Carol's conversations, where the app's calls are made. */
let bobChat = '';
let carolChat = '';

type Answer = {
  status: number;
  body: { status?: string; approvalId?: string; result?: unknown; error?: { code: string } };
};

/** The host page's request for the app's call `app_record {item}` in `conversationId`, sent to `base`. */
async function call(
  ctx: APIRequestContext,
  base: string,
  conversationId: string,
  item: string,
  approval?: { id: string; approved: boolean },
): Promise<Answer> {
  const res = await ctx.post(`${base}/api/mcp-apps/call`, {
    data: { conversationId, server: SERVER, tool: TOOL, arguments: { item }, ...(approval && { approval }) },
  });
  return { status: res.status(), body: await res.json() };
}

/** Bob's app asks, through `base`, to record `item`: the approval card's id. */
async function ask(base: string, item: string): Promise<string> {
  const asked = await call(bob, base, bobChat, item);
  expect(asked).toMatchObject({ status: 200, body: { status: 'approval-required' } });
  return asked.body.approvalId as string;
}

/** The approval card's "Approve", sent by `ctx` to `base` for `item` in `conversationId`. */
const approve = (ctx: APIRequestContext, base: string, conversationId: string, item: string, id: string) =>
  call(ctx, base, conversationId, item, { id, approved: true });

const ran = (item: string): Answer => ({
  status: 200,
  body: { status: 'done', result: { content: [{ type: 'text', text: `recorded ${item}` }] } },
});
const refused: Answer = { status: 404, body: { error: { code: 'not_found' } } };

/**
 * How often the tool ran for `account` from an app, or with `outcome` was refused (for `detail`): the
 * audit log, read by the admin on A.
 */
async function runs(account: { email: string }, outcome = 'ok', detail?: string): Promise<number> {
  // Refusals are the audit log's 'refused' kind.
  const res = await admin.get(`${A}/api/admin/audit?kind=${outcome === 'ok' ? 'admin' : 'refused'}`);
  expect(res.status()).toBe(200);
  const items = (await res.json()).items as Array<{
    action: string;
    target: string;
    outcome: string;
    email: string;
    detail: string | null;
  }>;
  return items.filter(
    (e) =>
      e.action === 'mcp.app.call' &&
      e.target === `${SERVER}/${TOOL}` &&
      e.outcome === outcome &&
      (detail === undefined || e.detail === detail) &&
      e.email === account.email,
  ).length;
}

/** A conversation of `ctx`'s user, made by a chat turn on `base`. */
async function conversation(ctx: APIRequestContext, base: string): Promise<string> {
  const id = newId('s66-chat');
  const res = await ctx.post(`${base}/api/chat`, { data: chatBody(id, 'Hello apps') });
  expect(res.status(), await res.text()).toBe(200);
  return id;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startTwoInstances('data/e2e-multi-apps');
  ({ url: A } = stack.a);
  ({ url: B } = stack.b);
  admin = await signUpAdmin(stack, ADMIN);
  for (const user of [BOB, CAROL]) await ensureUser(admin, user, A, stack.appUrl);
  const created = await admin.post(`${A}/api/mcp/servers`, {
    data: {
      name: SERVER,
      transport: 'stdio',
      command: 'node',
      args: [resolve('e2e/fixtures/test-mcp-server-apps.mjs')],
      timeoutMs: 60_000,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  bob = await signedIn(BOB, A, stack.appUrl);
  carol = await signedIn(CAROL, B, stack.appUrl);
  bobChat = await conversation(bob, A);
  carolChat = await conversation(carol, B);
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright wants the fixtures argument first
test.afterEach(({}, testInfo) => attachLogsOnFailure(stack, testInfo));

test.afterAll(async () => {
  await Promise.all([admin?.dispose(), bob?.dispose(), carol?.dispose()]);
  await stopTwoInstances(stack ?? {});
});

test('a call an app asks for on A and the user approves on B runs the tool once and answers with its result', async () => {
  const before = await runs(BOB);
  const id = await ask(A, 'apple');
  expect(await approve(bob, B, bobChat, 'apple', id)).toMatchObject(ran('apple'));
  expect(await runs(BOB)).toBe(before + 1);
});

test('a second answer to an approval already used, on A or on B, is refused and the tool does not run again', async () => {
  const before = await runs(BOB);
  const id = await ask(A, 'pear');
  expect(await approve(bob, B, bobChat, 'pear', id)).toMatchObject(ran('pear'));
  for (const base of [A, B]) expect(await approve(bob, base, bobChat, 'pear', id)).toMatchObject(refused);
  // A "Deny" after the fact is no answer either.
  expect(await call(bob, A, bobChat, 'pear', { id, approved: false })).toMatchObject(refused);
  expect(await runs(BOB)).toBe(before + 1);
});

test('two answers to one approval at once — one to A and one to B, or both to the instance that did not ask — run the tool once', async () => {
  const before = await runs(BOB);
  const first = await ask(A, 'plum');
  const both = await Promise.all([
    approve(bob, A, bobChat, 'plum', first),
    approve(bob, B, bobChat, 'plum', first),
  ]);
  expect(both.map((r) => r.status).sort()).toEqual([200, 404]);
  expect(both.find((r) => r.status === 200)).toMatchObject(ran('plum'));
  expect(both.find((r) => r.status === 404)).toMatchObject(refused);
  expect(await runs(BOB)).toBe(before + 1);
  // A card answered twice from a page whose requests reach A, for a call asked through B.
  const second = await ask(B, 'fig');
  const twice = await Promise.all([
    approve(bob, A, bobChat, 'fig', second),
    approve(bob, A, bobChat, 'fig', second),
  ]);
  expect(twice.map((r) => r.status).sort()).toEqual([200, 404]);
  expect(twice.find((r) => r.status === 200)).toMatchObject(ran('fig'));
  expect(await runs(BOB)).toBe(before + 2);
});

test("another user cannot answer someone else's approval through the other instance: refused, and the tool does not run for them", async () => {
  const bobBefore = await runs(BOB);
  const carolBefore = await runs(CAROL);
  // In Bob's conversation: not hers, not found; Bob's approval is still waiting and his answer on B runs it.
  const id = await ask(A, 'cherry');
  expect(await approve(carol, B, bobChat, 'cherry', id)).toMatchObject(refused);
  expect(await runs(BOB)).toBe(bobBefore);
  expect(await approve(bob, B, bobChat, 'cherry', id)).toMatchObject(ran('cherry'));
  expect(await runs(BOB)).toBe(bobBefore + 1);
  // In her own conversation, the same call, on B and on A: refused, nothing runs for her, and Bob's
  // approval is still his (before, her answer used it up: his Approve was then a 404).
  const next = await ask(A, 'lime');
  for (const base of [B, A])
    expect(await approve(carol, base, carolChat, 'lime', next)).toMatchObject(refused);
  expect(await runs(CAROL)).toBe(carolBefore);
  expect(await approve(bob, B, bobChat, 'lime', next)).toMatchObject(ran('lime'));
  expect(await runs(BOB)).toBe(bobBefore + 2);
  // Her tries are in the audit log, whichever instance took them (repeats count into one entry).
  expect(await runs(CAROL, 'denied', "an answer to another user's approval")).toBe(1);
});
