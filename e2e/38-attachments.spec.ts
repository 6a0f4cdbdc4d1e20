// SPEC §7.4 "Attachments": files picked with "Attach files" or pasted into the composer upload to
// POST /api/files; images reach the model as image parts (a model without vision gets a note instead),
// text files as text; the user message shows them after a reload. The file API's owner checks and limits,
// shares and export/import are in e2e/53-attachment-files.spec.ts; shared setup in e2e/attachments-helpers.ts.
import { expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { assistantMessages, composer, fakeModelRequests, specUser } from './helpers';
import { attachByButton, attachmentsSpec, chip, DOT_PNG, h, sent } from './attachments-helpers';

const ALMA = specUser('s38', 'Alma User');
const BLIND = 's38blind';

attachmentsSpec([ALMA], async (admin) => {
  // A provider whose model an admin marked as without vision (the fake model, under another name).
  const created = await admin.post('/api/admin/providers', {
    data: {
      name: BLIND,
      baseURL: `${FAKE_MODEL_URL}/v1`,
      models: ['fake-model'],
      noVision: ['fake-model'],
    },
    headers: h,
  });
  expect(created.status(), await created.text()).toBe(201);
  const providerId = (await created.json()).id;
  return () => admin.delete(`/api/admin/providers/${providerId}`, { headers: h });
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

test('an upload that fails says why in words, and the message is sent without it', async ({ page }) => {
  await page.goto('/');
  const paste = (name: string) =>
    composer(page).evaluate((box, fileName) => {
      const data = new DataTransfer();
      data.items.add(new File(['a,b\n1,2\n'], fileName, { type: 'text/csv' }));
      box.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, name);
  // The network is down for the upload: not the browser's own "network error".
  await page.route('**/api/files', (route) => route.abort('internetdisconnected'));
  await paste('offline.csv');
  await expect(chip(page, 'offline.csv')).toHaveAttribute('data-status', 'error');
  await expect(chip(page, 'offline.csv').getByRole('alert')).toHaveText(
    'Upload failed: Could not reach the server. Check your connection and try again.',
  );
  // A proxy's error page instead of the API's answer: its status, in words.
  await page.unroute('**/api/files');
  await page.route('**/api/files', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }),
  );
  await paste('proxy.csv');
  await expect(chip(page, 'proxy.csv').getByRole('alert')).toHaveText(
    'Upload failed: The server answered with an error (HTTP 502). Try again in a moment.',
  );

  await composer(page).fill('Sent without the failed files s38-failed');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText(
    'You said: Sent without the failed files s38-failed',
  );
  const content = await userContentWith(page, 's38-failed');
  expect(content.map((p) => String(p.text ?? '')).join('\n')).not.toContain('<attachment');
});
