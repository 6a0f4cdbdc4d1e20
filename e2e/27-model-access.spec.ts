// Issue 15 §1: an admin limits a provider's models to roles or users; others never see them, and a
// request naming one is refused with nothing stored.
import { type BrowserContext, expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { ADMIN, ensureUser, originHeaders, signIn, specUser } from './helpers';

const BOB = specUser('s27', 'Bob User');

const h = originHeaders();
const newId = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

let admin: BrowserContext;
let bob: BrowserContext;
let providerId = '';

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  bob = await browser.newContext();
  await signIn(bob, BOB);
});

test.afterAll(async () => {
  if (providerId) await admin.request.delete(`/api/admin/providers/${providerId}`, { headers: h });
  await Promise.all([admin.close(), bob.close()]);
});

const modelIds = async (ctx: BrowserContext) =>
  ((await (await ctx.request.get('/api/models')).json()).items as Array<{ id: string }>).map((m) => m.id);

const chat = (ctx: BrowserContext, id: string, model: string) =>
  ctx.request.post('/api/chat', {
    data: { id, model, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text: 'hello' }] } },
    headers: h,
  });

test('a model limited to admins: absent from a user’s list and picker, refused with 403 and nothing stored; the admin uses it', async () => {
  // The admin sets it up in the provider form.
  const page = await admin.newPage();
  await page.goto('/admin/providers');
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page.getByLabel('Name').fill('Gated');
  await page.getByLabel('Base URL').fill(`${FAKE_MODEL_URL}/v1`);
  await page.getByRole('textbox', { name: 'Models' }).fill('fake-model\nfake-model-2');
  await page.getByLabel('Per-model access').fill('fake-model-2: admin');
  await page.getByRole('button', { name: 'Add provider' }).last().click();
  await expect(page.locator('[data-provider="Gated"]')).toBeVisible();
  await page.close();
  const providers = (await (await admin.request.get('/api/admin/providers')).json()).items as Array<{
    id: string;
    name: string;
    allow: string[];
    modelAllow: Record<string, string[]>;
  }>;
  const gated = providers.find((p) => p.name === 'Gated');
  providerId = gated?.id ?? '';
  expect(gated).toMatchObject({ allow: ['*'], modelAllow: { 'fake-model-2': ['admin'] } });

  expect(await modelIds(admin)).toEqual(expect.arrayContaining(['Gated/fake-model', 'Gated/fake-model-2']));
  const bobs = await modelIds(bob);
  expect(bobs).toContain('Gated/fake-model');
  expect(bobs).not.toContain('Gated/fake-model-2');

  // The picker offers Bob only what he may use.
  const bobPage = await bob.newPage();
  await bobPage.goto('/');
  const options = await bobPage.getByLabel('Model').locator('option').allTextContents();
  expect(options.join('|')).toContain('fake-model (Gated)');
  expect(options.join('|')).not.toContain('fake-model-2 (Gated)');
  await bobPage.close();

  // Naming it anyway: refused as a model that does not exist is (nothing tells Bob it exists), and no
  // conversation or message is stored.
  const id = newId('t27');
  const refused = await chat(bob, id, 'Gated/fake-model-2');
  const unknown = await chat(bob, newId('t27x'), 'Gated/no-such-model');
  expect(refused.status()).toBe(400);
  expect(unknown.status()).toBe(400);
  const reason = (await refused.json()).error.message;
  expect(reason).toBe(
    'Model "Gated/fake-model-2" is not available (it may have been removed or limited). Pick another model.',
  );
  expect((await unknown.json()).error.message).toBe(reason.replace('fake-model-2', 'no-such-model'));
  expect((await bob.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  const allowed = await chat(bob, newId('t27ok'), 'Gated/fake-model');
  expect(allowed.status()).toBe(200);
  expect((await chat(admin, newId('t27a'), 'Gated/fake-model-2')).status()).toBe(200);
});

test('limiting a model later: a conversation that used it is refused clearly, and another model still answers', async () => {
  const id = newId('t27later');
  expect((await chat(bob, id, 'Gated/fake-model')).status()).toBe(200);
  const patched = await admin.request.patch(`/api/admin/providers/${providerId}`, {
    data: { modelAllow: { 'fake-model': ['admin'], 'fake-model-2': ['admin'] } },
    headers: h,
  });
  expect(patched.status()).toBe(200);
  expect(await modelIds(bob)).not.toContain('Gated/fake-model');
  // Continuing without naming a model uses the stored one: refused, with what to do.
  const next = await bob.request.post('/api/chat', {
    data: { id, message: { id: `${id}-2`, role: 'user', parts: [{ type: 'text', text: 'again' }] } },
    headers: h,
  });
  expect(next.status()).toBe(400);
  expect((await next.json()).error.message).toContain('Pick another model');
  const stored = await (await bob.request.get(`/api/conversations/${id}`)).json();
  expect(stored.messages).toHaveLength(2); // the first exchange only
  expect((await chat(bob, id, 'fake-model')).status()).toBe(200);
});

test('bad access lists are refused with the reason', async () => {
  const res = await admin.request.patch(`/api/admin/providers/${providerId}`, {
    data: { allow: ['everyone'] },
    headers: h,
  });
  expect(res.status()).toBe(400);
  const body = await res.json();
  expect(body.error.message).toContain('must be "*", a role');
  expect(body.error.fields['allow.0']).toBeTruthy();
});
