// Issue 17 (continued from 40-assistants.spec.ts): another user's personal assistant does not exist for
// them, only admins share and change shared assistants, and the fields (and the models and servers an
// author may use) are validated.
import { resolve } from 'node:path';
import { type BrowserContext, expect, test } from '@playwright/test';
import { answered, assistantsUsers, newId, requestWith, systemOf, tag } from './assistants-helpers';
import { assistantMessages, composer, originHeaders, send } from './helpers';

const h = originHeaders();

let admin: BrowserContext;
let bob: BrowserContext;
let carol: BrowserContext;
let serverId = '';

test.beforeAll(async ({ browser }) => {
  ({ admin, bob, carol } = await assistantsUsers(browser, 's50'));
});

test.afterAll(async () => {
  if (serverId) await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
  await Promise.all([admin.close(), bob.close(), carol.close()]);
});

test('ownership: another user’s personal assistant does not exist for them; only admins share and change shared ones', async () => {
  const mine = await bob.request.post('/api/assistants', {
    data: { name: `Bob's ${tag()}`, instructions: 'Be brief.' },
    headers: h,
  });
  expect(mine.status()).toBe(201);
  const bobs = await mine.json();
  expect(bobs).toMatchObject({ mine: true, editable: true, shared: false });

  const carolList = (await (await carol.request.get('/api/assistants')).json()).items as Array<{
    id: string;
  }>;
  expect(carolList.map((a) => a.id)).not.toContain(bobs.id);
  expect(
    (await carol.request.patch(`/api/assistants/${bobs.id}`, { data: { name: 'x' }, headers: h })).status(),
  ).toBe(404);
  expect((await carol.request.delete(`/api/assistants/${bobs.id}`, { headers: h })).status()).toBe(404);
  // Naming it in a chat: 404, and nothing is stored.
  const id = newId('t40');
  const chat = await carol.request.post('/api/chat', {
    data: {
      id,
      assistantId: bobs.id,
      message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    },
    headers: h,
  });
  expect(chat.status()).toBe(404);
  expect((await carol.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  // Without our Origin: refused.
  expect(
    (await bob.request.post('/api/assistants', { data: { name: 'x', instructions: '' } })).status(),
  ).toBe(403);

  const share = await bob.request.post('/api/assistants', {
    data: { name: 'Everyone', instructions: 'x', shared: true },
    headers: h,
  });
  expect(share.status()).toBe(403);
  expect((await share.json()).error.fields).toEqual({ shared: 'admins only' });
  expect(
    (await bob.request.patch(`/api/assistants/${bobs.id}`, { data: { shared: true }, headers: h })).status(),
  ).toBe(403);

  const teamName = `Team ${tag()}`;
  const team = await admin.request.post('/api/assistants', {
    data: { name: teamName, instructions: `Team rules ${tag()}`, shared: true, temperature: 0.5 },
    headers: h,
  });
  expect(team.status()).toBe(201);
  const shared = await team.json();
  const seen = (
    (await (await carol.request.get('/api/assistants')).json()).items as Array<{
      id: string;
      editable: boolean;
    }>
  ).find((a) => a.id === shared.id);
  expect(seen).toMatchObject({ editable: false });
  expect(
    (
      await carol.request.patch(`/api/assistants/${shared.id}`, { data: { name: 'Mine' }, headers: h })
    ).status(),
  ).toBe(403);
  expect((await carol.request.delete(`/api/assistants/${shared.id}`, { headers: h })).status()).toBe(403);

  // Carol starts a chat with the shared one: its instructions lead the system message.
  const page = await carol.newPage();
  await page.goto('/');
  await page.getByRole('link', { name: `New chat with ${teamName}` }).click();
  await expect(page.locator('header').getByText(teamName, { exact: true })).toBeVisible();
  const text = `shared ${tag()}`;
  await send(page, text);
  await answered(page);
  const body = await requestWith(page, text);
  expect(systemOf(body).startsWith(`${shared.instructions}\n\n`)).toBe(true);
  expect(body.temperature).toBe(0.5);
  await page.close();

  expect(
    (
      await admin.request.patch(`/api/assistants/${shared.id}`, {
        data: { name: `${teamName}!` },
        headers: h,
      })
    ).status(),
  ).toBe(200);
  expect((await admin.request.delete(`/api/assistants/${shared.id}`, { headers: h })).status()).toBe(204);
  expect((await carol.request.get('/api/assistants')).ok()).toBe(true);
});

test('a shared assistant un-shared or deleted while a user starts a chat with it: the chat says so and offers a new chat with the message kept', async () => {
  for (const remove of ['unshare', 'delete'] as const) {
    const name = `Gone ${remove} ${tag()}`;
    const made = await admin.request.post('/api/assistants', {
      data: { name, instructions: 'Be brief.', shared: true },
      headers: h,
    });
    expect(made.status()).toBe(201);
    const { id } = await made.json();
    const page = await carol.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: `New chat with ${name}` }).click();
    await expect(page.locator('header').getByText(name, { exact: true })).toBeVisible();
    const res =
      remove === 'unshare'
        ? await admin.request.patch(`/api/assistants/${id}`, { data: { shared: false }, headers: h })
        : await admin.request.delete(`/api/assistants/${id}`, { headers: h });
    expect(res.ok()).toBe(true);

    const text = `for the gone assistant ${tag()}`;
    await send(page, text);
    const notice = page.locator('[data-chat-error]');
    await expect(notice).toContainText('This assistant is no longer available');
    // Retry could only fail again: the way out is a plain new chat, the message waiting in its composer.
    await expect(notice.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await notice.getByRole('link', { name: 'Start a new chat' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(composer(page)).toHaveValue(text);
    await expect(page.locator('header').getByText(name, { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(assistantMessages(page).last()).toContainText(`You said: ${text}`);
    await page.close();
    if (remove === 'unshare') await admin.request.delete(`/api/assistants/${id}`, { headers: h });
  }
});

test('validation: fields named; a model or server the author may not use is refused', async () => {
  const post = (ctx: BrowserContext, data: object) =>
    ctx.request.post('/api/assistants', { data, headers: h });
  const fieldsOf = async (res: Awaited<ReturnType<typeof post>>) => {
    expect(res.status()).toBe(400);
    return Object.keys((await res.json()).error.fields ?? {});
  };
  expect(await fieldsOf(await post(bob, { name: '', instructions: 'x' }))).toEqual(['name']);
  expect(await fieldsOf(await post(bob, { name: 'Long', instructions: 'x'.repeat(8001) }))).toEqual([
    'instructions',
  ]);
  expect(await fieldsOf(await post(bob, { name: 'Hot', instructions: '', temperature: 5 }))).toEqual([
    'temperature',
  ]);
  expect(
    await fieldsOf(await post(bob, { name: 'M', instructions: '', model: 'nope/no-such-model' })),
  ).toEqual(['model']);
  expect((await post(bob, { name: 'x', instructions: '', userId: 'someone' })).status()).toBe(400);

  // A server on an admins-only allow list (per-user scope: nothing connects until it is used).
  const server = await admin.request.post('/api/mcp/servers', {
    data: {
      name: 't40staff',
      transport: 'stdio',
      command: 'node',
      args: [resolve('e2e/fixtures/test-mcp-server.mjs'), 'stdio'],
      allow: ['admin'],
    },
    headers: h,
  });
  expect(server.status(), await server.text()).toBe(201);
  serverId = (await server.json()).id;
  const sneaky = await post(bob, { name: 'Sneaky', instructions: '', servers: ['t40staff'] });
  expect(await fieldsOf(sneaky)).toEqual(['servers']);
  const staff = await post(admin, {
    name: `Staff ${tag()}`,
    instructions: '',
    servers: ['t40staff'],
    shared: true,
  });
  expect(staff.status()).toBe(201);
  const staffId = (await staff.json()).id;
  // A user shown the shared one does not even learn the server's name.
  const asBob = (
    (await (await bob.request.get('/api/assistants')).json()).items as Array<{
      id: string;
      servers: string[] | null;
    }>
  ).find((a) => a.id === staffId);
  expect(asBob?.servers).toEqual([]);
  await admin.request.delete(`/api/assistants/${staffId}`, { headers: h });

  // A conversation's instructions are capped too.
  const id = newId('t40v');
  const chat = await bob.request.post('/api/chat', {
    data: { id, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text: 'hi' }] } },
    headers: h,
  });
  expect(chat.status()).toBe(200);
  await chat.text();
  const tooLong = await bob.request.patch(`/api/conversations/${id}`, {
    data: { instructions: 'x'.repeat(8001) },
    headers: h,
  });
  expect(tooLong.status()).toBe(400);
  expect((await tooLong.json()).error.fields).toHaveProperty('instructions');
  expect(
    (
      await carol.request.patch(`/api/conversations/${id}`, { data: { instructions: 'mine' }, headers: h })
    ).status(),
  ).toBe(404);
});
