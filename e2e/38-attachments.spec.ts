// SPEC §7.4 "Attachments": files picked with "Attach files" or pasted into the composer upload to
// POST /api/files; images reach the model as image parts (a model without vision gets a note instead),
// text files as text; the user message shows them after a reload; only the owner may read a file.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  composer,
  ensureUser,
  fakeModelRequests,
  originHeaders,
  signIn,
  specUser,
} from './helpers';

const ALMA = specUser('s38', 'Alma User');
const BRUNO = specUser('s38', 'Bruno User');
const BLIND = 's38blind';
const h = originHeaders();

/** A 1×1 PNG a browser can decode. */
const DOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let admin: BrowserContext;
let providerId: string | undefined;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, ALMA);
  await ensureUser(admin.request, BRUNO);
  // A provider whose model an admin marked as without vision (the fake model, under another name).
  const created = await admin.request.post('/api/admin/providers', {
    data: {
      name: BLIND,
      baseURL: `${FAKE_MODEL_URL}/v1`,
      models: ['fake-model'],
      noVision: ['fake-model'],
    },
    headers: h,
  });
  expect(created.status(), await created.text()).toBe(201);
  providerId = (await created.json()).id;
});

test.afterAll(async () => {
  if (providerId) await admin.request.delete(`/api/admin/providers/${providerId}`, { headers: h });
  await admin.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, ALMA);
});

type ModelRequest = { body: { messages: Array<{ role: string; content: unknown }> } };

/** The user message content of the latest model request whose text holds `marker` (a title request may follow). */
async function userContentWith(page: Page, marker: string): Promise<Array<Record<string, unknown>>> {
  const requests = (await fakeModelRequests(page.request)) as unknown as ModelRequest[];
  for (const request of requests.toReversed()) {
    // A title request (app/_server/titles.ts) quotes the message as text: not the turn we look for.
    const system = request.body.messages.find((m) => m.role === 'system');
    if (String(system?.content ?? '').startsWith('You write titles for chat conversations.')) continue;
    const user = request.body.messages.findLast((m) => m.role === 'user');
    const content = Array.isArray(user?.content)
      ? (user.content as Array<Record<string, unknown>>)
      : [{ type: 'text', text: String(user?.content ?? '') }];
    if (content.some((p) => typeof p.text === 'string' && p.text.includes(marker))) return content;
  }
  throw new Error(`no model request with ${marker}`);
}

async function attachByButton(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files);
}

const chip = (page: Page, name: string) => page.locator(`[data-upload-chip="${name}"]`);
const sent = (page: Page, name: string) =>
  page.locator(`[data-role="user"] [data-file-attachment="${name}"]`);

test('an image attached with "Attach files" reaches the model as an image part and stays after a reload', async ({
  page,
}) => {
  await page.goto('/');
  await attachByButton(page, [{ name: 'dot.png', mimeType: 'image/png', buffer: DOT_PNG }]);
  await expect(chip(page, 'dot.png')).toHaveAttribute('data-status', 'done');
  await expect(chip(page, 'dot.png')).toContainText('70 B');
  await composer(page).fill('What is in this picture? s38-image');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText('You said: What is in this picture? s38-image');
  await expect(chip(page, 'dot.png')).toHaveCount(0);

  const content = await userContentWith(page, 's38-image');
  const image = content.find((p) => p.type === 'image_url') as { image_url?: { url?: string } } | undefined;
  expect(image?.image_url?.url).toBe(`data:image/png;base64,${DOT_PNG.toString('base64')}`);

  // The preview is served from our origin, decoded by the browser, and still there after a reload.
  for (const round of ['live', 'reloaded']) {
    const preview = sent(page, 'dot.png').getByRole('img', { name: 'dot.png' });
    await expect(preview, round).toBeVisible();
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        message: round,
      })
      .toBe(1);
    if (round === 'live') await page.reload();
  }
  const src = await sent(page, 'dot.png').getByRole('img').getAttribute('src');
  expect(src).toMatch(/^\/api\/files\/[A-Za-z0-9_-]{16,64}$/);
  const file = await page.request.get(src ?? '');
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('image/png');
  expect(file.headers()['x-content-type-options']).toBe('nosniff');
});

test('a text file pasted into the composer reaches the model as text and shows as a file chip', async ({
  page,
}) => {
  await page.goto('/');
  await composer(page).focus();
  await composer(page).evaluate((box) => {
    const data = new DataTransfer();
    data.items.add(new File(['city,people\nOslo,709000\n'], 'cities.csv', { type: 'text/csv' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(chip(page, 'cities.csv')).toHaveAttribute('data-status', 'done');
  // Pasting a file does not paste its name or text into the message.
  await expect(composer(page)).toHaveValue('');
  await composer(page).fill('How many people live in Oslo? s38-paste');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText(
    'You said: How many people live in Oslo? s38-paste',
  );

  const content = await userContentWith(page, 's38-paste');
  const texts = content.map((p) => String(p.text ?? '')).join('\n');
  expect(texts).toContain('<attachment name="cities.csv" type="text/csv">\ncity,people\nOslo,709000');
  expect(content.some((p) => p.type === 'image_url')).toBe(false);

  await expect(sent(page, 'cities.csv')).toBeVisible();
  await page.reload();
  await expect(sent(page, 'cities.csv').getByRole('link', { name: 'cities.csv' })).toBeVisible();
});

test('a model without vision gets a note instead of the image, and the user is told', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Model').selectOption(`${BLIND}/fake-model`);
  await attachByButton(page, [{ name: 'blind.png', mimeType: 'image/png', buffer: DOT_PNG }]);
  await expect(chip(page, 'blind.png')).toHaveAttribute('data-status', 'done');
  await composer(page).fill('Describe it s38-blind');
  await composer(page).press('Enter');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('You said: Describe it s38-blind');
  await expect(answer.locator('[data-notice]')).toContainText('This model cannot view images: blind.png');
  const content = await userContentWith(page, 's38-blind');
  expect(content.some((p) => p.type === 'image_url')).toBe(false);
  expect(content.map((p) => String(p.text ?? '')).join('\n')).toContain(
    '[Image "blind.png" attached by the user: this model cannot view images, so it was not sent.]',
  );
});

test('POST /api/files: only the owner reads a file; over the limit is 413; a type the bytes do not back is 400', async ({
  page,
  browser,
  request,
}) => {
  const upload = (name: string, mimeType: string, buffer: Buffer) =>
    page.request.post('/api/files', { multipart: { file: { name, mimeType, buffer } }, headers: h });

  const ok = await upload('notes.md', 'text/markdown', Buffer.from('# Private notes'));
  expect(ok.status(), await ok.text()).toBe(201);
  const file = (await ok.json()) as {
    id: string;
    url: string;
    name: string;
    mediaType: string;
    size: number;
  };
  expect(file).toEqual({
    id: file.id,
    url: `/api/files/${file.id}`,
    name: 'notes.md',
    mediaType: 'text/markdown',
    size: 15,
  });
  const own = await page.request.get(file.url);
  expect(own.status()).toBe(200);
  expect(await own.text()).toBe('# Private notes');
  expect(own.headers()['content-disposition']).toMatch(/^attachment; filename="notes.md"/);

  const bruno = await browser.newContext();
  try {
    await signIn(bruno, BRUNO);
    const other = await bruno.request.get(file.url);
    expect(other.status()).toBe(404);
    expect(await other.text()).not.toContain('Private notes');
    // Nor can another user send it in a message of theirs.
    const chat = await bruno.request.post('/api/chat', {
      data: {
        id: 's38-stolen-file',
        message: {
          id: 'm1',
          role: 'user',
          parts: [
            { type: 'text', text: 'read this' },
            { type: 'file', mediaType: 'text/markdown', url: file.url, filename: 'notes.md' },
          ],
        },
      },
      headers: h,
    });
    expect(chat.status()).toBe(404);
  } finally {
    await bruno.close();
  }
  // Signed out (the `request` fixture has no session): no file either.
  const anonymous = await request.get(file.url);
  expect([401, 404]).toContain(anonymous.status());

  const big = await upload('big.txt', 'text/plain', Buffer.alloc(21 * 1024 * 1024, 'a'));
  expect(big.status()).toBe(413);
  expect((await big.json()).error.message).toContain('20 MB');

  const fake = await upload('cat.png', 'image/png', Buffer.from('<script>alert(1)</script>'));
  expect(fake.status()).toBe(400);
  const binary = await upload(
    'tool.bin',
    'application/octet-stream',
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]),
  );
  expect(binary.status()).toBe(400);
  const crossSite = await page.request.post('/api/files', {
    multipart: { file: { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') } },
    headers: { origin: 'https://evil.example' },
  });
  expect(crossSite.status()).toBe(403);
});

/** A new conversation whose first message carries dot.png; answers its id and the file's URL. */
async function conversationWithImage(page: Page, marker: string): Promise<{ id: string; url: string }> {
  await page.goto('/');
  await attachByButton(page, [{ name: 'dot.png', mimeType: 'image/png', buffer: DOT_PNG }]);
  await expect(chip(page, 'dot.png')).toHaveAttribute('data-status', 'done');
  await composer(page).fill(`Keep this ${marker}`);
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText(`You said: Keep this ${marker}`);
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const id = page.url().split('/c/')[1] ?? '';
  const url = (await sent(page, 'dot.png').getByRole('img').getAttribute('src')) ?? '';
  return { id, url };
}

test('share pages show attachments only when the owner includes them', async ({ page, browser }) => {
  const { url } = await conversationWithImage(page, 's38-share');
  const share = async (includeFiles: boolean) => {
    const dialog = page.getByRole('dialog', { name: 'Share conversation' });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    if (includeFiles) await dialog.getByRole('checkbox', { name: 'Include attachments' }).check();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    return link;
  };
  const without = await share(false);
  const withFiles = await share(true);
  const anon = await browser.newContext();
  try {
    const viewer = await anon.newPage();
    await viewer.goto(without);
    await expect(viewer.locator('[data-role="user"]')).toContainText('Keep this s38-share');
    await expect(viewer.locator('[data-file-attachment]')).toHaveCount(0);
    // That share's token does not open the file either.
    const token = without.split('/share/')[1];
    expect((await anon.request.get(`${url}?share=${token}`)).status()).toBe(404);
    expect((await anon.request.get(url)).status()).not.toBe(200);

    await viewer.goto(withFiles);
    const preview = viewer.locator('[data-file-attachment="dot.png"]').getByRole('img', { name: 'dot.png' });
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    expect(await preview.getAttribute('src')).toBe(`${url}?share=${withFiles.split('/share/')[1]}`);
  } finally {
    await anon.close();
  }
});

test('export and import keep attachments; deleting the conversation deletes its file', async ({ page }) => {
  const { id, url } = await conversationWithImage(page, 's38-export');
  const exported = await page.request.get(`/api/conversations/${id}/export?format=json`);
  expect(exported.status()).toBe(200);
  const body = await exported.json();
  expect(JSON.stringify(body)).toContain(`data:image/png;base64,${DOT_PNG.toString('base64')}`);
  const md = await (await page.request.get(`/api/conversations/${id}/export?format=md`)).text();
  expect(md).toContain('_(attached: dot.png)_');

  const imported = await page.request.post('/api/conversations/import', { data: body, headers: h });
  expect(imported.status(), await imported.text()).toBe(201);
  const copy = (await imported.json()).id as string;

  const deleted = await page.request.delete(`/api/conversations/${id}`, { headers: h });
  expect(deleted.ok()).toBe(true);
  expect((await page.request.get(url)).status()).toBe(404);

  // The imported copy has a file of its own, still there after the original went.
  await page.goto(`/c/${copy}`);
  const preview = sent(page, 'dot.png').getByRole('img', { name: 'dot.png' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  expect(await preview.getAttribute('src')).not.toBe(url);
});
