// Issue 17: assistants (named instructions and settings, personal or shared by an admin) and a
// conversation's own instructions, which reach the model as the system message above the host's guidance.
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  fakeModelRequests,
  originHeaders,
  send,
  signIn,
  specUser,
} from './helpers';

const BOB = specUser('s40', 'Bob User');
const CAROL = specUser('s40', 'Carol User');
const h = originHeaders();
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const newId = (prefix: string) => `${prefix}-${tag()}`;

type Logged = {
  messages: Array<{ role: string; content: unknown }>;
  temperature?: number;
  tools?: unknown[];
};

/** The model request whose last user message contains `marker` (the newest such). */
async function requestWith(page: Page, marker: string): Promise<Logged> {
  let found: Logged | undefined;
  await expect
    .poll(async () => {
      const all = (await fakeModelRequests(page.request)).map((r) => r.body as unknown as Logged);
      found = all.findLast((b) =>
        JSON.stringify(b.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '').includes(marker),
      );
      return Boolean(found);
    })
    .toBe(true);
  return found as Logged;
}

const systemOf = (body: Logged) => {
  const first = body.messages[0];
  expect(first?.role).toBe('system');
  return String(first?.content);
};

async function answered(page: Page) {
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
}

let admin: BrowserContext;
let bob: BrowserContext;
let carol: BrowserContext;
let serverId = '';

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  await ensureUser(admin.request, CAROL);
  bob = await browser.newContext();
  await signIn(bob, BOB);
  carol = await browser.newContext();
  await signIn(carol, CAROL);
});

test.afterAll(async () => {
  if (serverId) await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
  await Promise.all([admin.close(), bob.close(), carol.close()]);
});

test('create an assistant, start "New chat with …": its instructions are the system message; editing the conversation’s instructions changes the next one', async () => {
  const page = await bob.newPage();
  const name = `Pirate ${tag()}`;
  const instructions = `Always answer like a pirate. (${tag()})`;
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('link', { name: 'Assistants' })
    .click();
  await expect(page.getByRole('heading', { name: 'Assistants', level: 1 })).toBeVisible();

  // A field error shows beside its field.
  await page.getByRole('button', { name: 'New assistant' }).click();
  const form = page.getByRole('dialog', { name: 'New assistant' });
  await form.getByRole('button', { name: 'Create' }).click();
  const nameBox = form.getByRole('textbox', { name: 'Name' });
  await expect(nameBox).toHaveAttribute('aria-invalid', 'true');
  await expect(nameBox).toHaveAccessibleDescription('must not be empty');
  await expect(nameBox).toBeFocused();
  await expect(form.getByRole('alert')).toHaveText('Check the fields marked below.');

  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Instructions' }).fill(instructions);
  await form.getByRole('spinbutton', { name: 'Temperature' }).fill('0.3');
  await form.getByRole('combobox', { name: 'Tool mode' }).selectOption('off');
  // Only admins share.
  await expect(form.getByRole('checkbox', { name: 'Share with everyone' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  const item = page.locator(`[data-assistant="${name}"]`);
  await expect(item).toContainText(instructions);

  await item.getByRole('link', { name: `New chat with ${name}` }).click();
  await expect(page.locator('header').getByText(name, { exact: true })).toBeVisible();
  // Its settings seed the new conversation's.
  await expect(page.getByRole('button', { name: /^Tools · / })).toHaveText('Tools · Off');
  const first = `first ${tag()}`;
  await send(page, first);
  await expect(assistantMessages(page).last()).toContainText(`You said: ${first}`);
  await answered(page);
  const body = await requestWith(page, first);
  expect(systemOf(body).startsWith(`${instructions}\n\n`)).toBe(true);
  expect(systemOf(body).length).toBeGreaterThan(instructions.length + 20); // the host's guidance follows
  expect(body.temperature).toBe(0.3);
  expect(body).not.toHaveProperty('tools');

  const id = conversationIdFromUrl(page);
  const stored = await (await page.request.get(`/api/conversations/${id}`)).json();
  expect(stored).toMatchObject({ instructions, temperature: 0.3, toolMode: 'off' });

  // The header's "Instructions" edits this conversation's own instructions.
  await page.locator('header').getByRole('button', { name: 'Instructions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conversation instructions' });
  const box = dialog.getByRole('textbox', { name: 'Instructions' });
  await expect(box).toHaveValue(instructions);
  const edited = `Answer only in haiku. (${tag()})`;
  await box.fill(edited);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const second = `second ${tag()}`;
  await send(page, second);
  await expect(assistantMessages(page).last()).toContainText(`You said: ${second}`);
  await answered(page);
  const next = systemOf(await requestWith(page, second));
  expect(next.startsWith(`${edited}\n\n`)).toBe(true);
  expect(next).not.toContain(instructions);

  // After a reload: the assistant in the header, the edited instructions in the dialog.
  await page.reload();
  await expect(page.locator('header').getByText(name, { exact: true })).toBeVisible();
  await page.locator('header').getByRole('button', { name: 'Instructions' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Instructions' })).toHaveValue(edited);
  await page.keyboard.press('Escape');

  // On a phone the header's actions (in its "More actions" menu) and the assistants page still fit.
  await page.setViewportSize({ width: 390, height: 844 });
  const more = page.locator('header').getByRole('button', { name: 'More actions' });
  await expect(more).toBeInViewport();
  await more.click();
  const menu = page.getByRole('menu');
  for (const name of ['Instructions', 'Share', 'Markdown', 'JSON']) {
    await expect(menu.getByRole('menuitem', { name })).toBeInViewport();
  }
  await page.keyboard.press('Escape');

  // Edit and delete from the list.
  await page.goto('/assistants');
  await expect(item.getByRole('button', { name: `Edit ${name}` })).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 800 });
  await item.getByRole('button', { name: `Edit ${name}` }).click();
  const editForm = page.getByRole('dialog', { name: `Edit ${name}` });
  await editForm.getByRole('textbox', { name: 'Name' }).fill(`${name} II`);
  await editForm.getByRole('button', { name: 'Save' }).click();
  const renamed = page.locator(`[data-assistant="${name} II"]`);
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete assistant?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(renamed).toHaveCount(0);
  // The conversation keeps its own instructions.
  expect((await (await page.request.get(`/api/conversations/${id}`)).json()).instructions).toBe(edited);
  await page.close();
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
