// SPEC §7.4 "Attachments", part 2 (the composer and what reaches the model are in e2e/38-attachments.spec.ts;
// shared setup in e2e/attachments-helpers.ts): only the owner may read a file, POST /api/files refuses files
// over the limit or of a type the bytes do not back, share pages show attachments only when the owner includes
// them, export and import keep them, deleting a conversation deletes its files, and a file's name cannot
// pose as another type.
import { expect, type Page, test } from '@playwright/test';
import { assistantMessages, composer, signIn, specUser } from './helpers';
import { attachByButton, attachmentsSpec, chip, DOT_PNG, h, sent } from './attachments-helpers';

const ALMA = specUser('s53', 'Alma User');
const BRUNO = specUser('s53', 'Bruno User');

attachmentsSpec([ALMA, BRUNO]);

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

test('a file name cannot pose as another type: bidirectional overrides go, a long name keeps its extension', async ({
  page,
}) => {
  await page.goto('/');
  // U+202E would make "report‮gnp.txt" read as "reporttxt.png".
  const posing = 'report\u202Egnp.txt';
  const long = `${'n'.repeat(250)}.csv`;
  await attachByButton(page, [
    { name: posing, mimeType: 'text/plain', buffer: Buffer.from('plain text') },
    { name: long, mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') },
  ]);
  // The composer's chips already show the names as they are sent and stored, their remove buttons too.
  const kept = `${'n'.repeat(196)}.csv`;
  const chips = page.getByRole('list', { name: 'Files to send' });
  await expect(chip(page, 'reportgnp.txt')).toHaveAttribute('data-status', 'done');
  await expect(chip(page, kept)).toHaveAttribute('data-status', 'done');
  await expect(chip(page, 'reportgnp.txt')).toContainText('reportgnp.txt');
  await expect(chips.getByRole('button', { name: 'Remove reportgnp.txt', exact: true })).toBeVisible();
  await expect(chips.getByRole('button', { name: `Remove ${kept}`, exact: true })).toBeVisible();
  await expect(chips).not.toContainText('\u202E');
  await composer(page).fill('Names s53-names');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText('You said: Names s53-names');

  await expect(sent(page, 'reportgnp.txt')).toBeVisible();
  await expect(sent(page, kept)).toHaveAttribute('data-media-type', 'text/csv');
  const url = (await sent(page, kept).getByRole('link').getAttribute('href')) ?? '';
  const file = await page.request.get(url);
  expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(file.headers()['content-disposition']).toContain(`filename="${kept}"`);
});
