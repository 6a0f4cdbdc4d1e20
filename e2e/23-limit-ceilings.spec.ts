import { type BrowserContext, expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { ADMIN, ensureUser, fakeModelRequests, originHeaders, signIn, specUser } from './helpers';

const BOB = specUser('s23', 'Bob User');

const h = originHeaders();
const message = (id: string, text: string) => ({
  id: `${id}-${Date.now()}`,
  role: 'user',
  parts: [{ type: 'text', text }],
});

type Limits = { maxSteps: number; maxToolCalls: number };
let admin: BrowserContext;
let bob: BrowserContext;
let original: Limits;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  const settings = (await (await admin.request.get('/api/admin/settings')).json()) as Limits;
  original = { maxSteps: settings.maxSteps, maxToolCalls: settings.maxToolCalls };
  bob = await browser.newContext();
  await signIn(bob, BOB);
});

test.afterAll(async () => {
  // Other specs run with the admin's limits as they were.
  await admin.request.patch('/api/admin/settings', { data: original, headers: h });
  await admin.close();
  await bob.close();
});

/** A conversation of Bob's, created by its first message. */
async function newConversation(name: string): Promise<string> {
  const id = `${name}-${Date.now()}`;
  const res = await bob.request.post('/api/chat', {
    data: { id, message: message(id, 'hello') },
    headers: h,
  });
  expect(res.status()).toBe(200);
  await res.body();
  return id;
}

test("A6: a non-admin may lower the step and tool-call limits but not raise them above the admin's (400 naming the field and the limit)", async () => {
  await admin.request.patch('/api/admin/settings', { data: { maxSteps: 10, maxToolCalls: 20 }, headers: h });
  const id = await newConversation('a6-patch');

  for (const [field, value, ceiling] of [
    ['maxSteps', 11, 10],
    ['maxSteps', 100, 10],
    ['maxToolCalls', 21, 20],
  ] as const) {
    const res = await bob.request.patch(`/api/conversations/${id}`, { data: { [field]: value }, headers: h });
    expect(res.status(), `${field}: ${value}`).toBe(400);
    const { error } = await res.json();
    expect(error.fields[field]).toContain(String(ceiling));
    expect(error.message).toContain(field);
  }
  expect(await (await bob.request.get(`/api/conversations/${id}`)).json()).toMatchObject({
    maxSteps: null,
    maxToolCalls: null,
  });

  const lower = await bob.request.patch(`/api/conversations/${id}`, {
    data: { maxSteps: 4, maxToolCalls: 20 },
    headers: h,
  });
  expect(lower.status(), await lower.text()).toBe(200);
  expect(await lower.json()).toMatchObject({ maxSteps: 4, maxToolCalls: 20 });

  // A new chat's first message carries its tool settings: the same ceiling applies, and nothing is stored.
  const fresh = `a6-new-${Date.now()}`;
  const res = await bob.request.post('/api/chat', {
    data: { id: fresh, message: message(fresh, 'hi'), tools: { maxToolCalls: 200 } },
    headers: h,
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).error.fields.maxToolCalls).toContain('20');
  expect((await bob.request.get(`/api/conversations/${fresh}`)).status()).toBe(404);

  // The composer's inputs offer the admin's values as their maximum.
  const page = await bob.newPage();
  await page.goto(`/c/${id}`);
  await page.getByRole('button', { name: /^Tools · / }).click();
  const menu = page.getByRole('dialog', { name: 'Tool settings' });
  await expect(menu.getByRole('spinbutton', { name: 'Max steps' })).toHaveAttribute('max', '10');
  await expect(menu.getByRole('spinbutton', { name: 'Max tool calls' })).toHaveAttribute('max', '20');
  await page.close();
});

test("A6: lowering the admin's step limit caps a conversation that stored a higher one", async () => {
  await admin.request.patch('/api/admin/settings', { data: { maxSteps: 10 }, headers: h });
  const id = await newConversation('a6-cap');
  const allowed = await bob.request.patch(`/api/conversations/${id}`, { data: { maxSteps: 8 }, headers: h });
  expect(allowed.status()).toBe(200);
  // Later the admin lowers the limit to 3: the stored 8 is no longer honoured.
  const lowered = await admin.request.patch('/api/admin/settings', { data: { maxSteps: 3 }, headers: h });
  expect(lowered.status()).toBe(200);

  await bob.request.delete(`${FAKE_MODEL_URL}/requests`);
  const marker = `a6-loop-${Date.now()}`;
  const res = await bob.request.post('/api/chat', {
    data: { id, message: message(id, `${marker} [[tool:add:{"a":1,"b":1}]] [[loop]]`) },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const stream = await res.text();
  // The fake model calls the tool again after every result: only the step limit ends the turn.
  const steps = (await fakeModelRequests(bob.request)).filter((r) =>
    JSON.stringify(r.body.messages).includes(marker),
  );
  expect(steps).toHaveLength(3);
  expect(stream).toContain('Reached the limit of 3 steps');
});
