// What the attachments specs share (SPEC §7.4 "Attachments": e2e/38-attachments.spec.ts and
// e2e/53-attachment-files.spec.ts): the spec's hooks, a small image, and the composer's file chips.
import { type APIRequestContext, type BrowserContext, type Page, test } from '@playwright/test';
import { ADMIN, type Account, ensureUser, originHeaders, signIn } from './helpers';

export const h = originHeaders();

/** A 1×1 PNG a browser can decode. */
export const DOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The spec's hooks: before its tests the admin makes the spec's users (and whatever `prepare` adds, undone
 * by the function it answers after the tests); every test starts signed in as the first user.
 */
export function attachmentsSpec(
  users: [Account, ...Account[]],
  prepare?: (admin: APIRequestContext) => Promise<() => Promise<unknown>>,
): void {
  let admin: BrowserContext | undefined;
  let undo: (() => Promise<unknown>) | undefined;

  test.beforeAll(async ({ browser }) => {
    admin = await browser.newContext();
    await signIn(admin, ADMIN);
    for (const user of users) await ensureUser(admin.request, user);
    undo = await prepare?.(admin.request);
  });

  test.afterAll(async () => {
    await undo?.();
    await admin?.close();
  });

  test.beforeEach(async ({ page }) => {
    await signIn(page, users[0]);
  });
}

export async function attachByButton(
  page: Page,
  files: Array<{ name: string; mimeType: string; buffer: Buffer }>,
) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files);
}

export const chip = (page: Page, name: string) => page.locator(`[data-upload-chip="${name}"]`);
export const sent = (page: Page, name: string) =>
  page.locator(`[data-role="user"] [data-file-attachment="${name}"]`);
