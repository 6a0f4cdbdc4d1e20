import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { ADMIN, ensureUser, fakeModelRequests, signIn, specUser } from './helpers';

// What the two assistants specs share: 40-assistants.spec.ts (making and using an assistant in the UI,
// a conversation's own instructions) and 50-assistants-access.spec.ts (ownership, sharing, validation).

export const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const newId = (prefix: string) => `${prefix}-${tag()}`;

export type Logged = {
  messages: Array<{ role: string; content: unknown }>;
  temperature?: number;
  tools?: unknown[];
};

/** The model request whose last user message contains `marker` (the newest such). */
export async function requestWith(page: Page, marker: string): Promise<Logged> {
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

export const systemOf = (body: Logged) => {
  const first = body.messages[0];
  expect(first?.role).toBe('system');
  return String(first?.content);
};

/** The answer has ended: Stop is gone and Send is back. */
export async function answered(page: Page) {
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
}

export type AssistantsUsers = { admin: BrowserContext; bob: BrowserContext; carol: BrowserContext };

/**
 * The admin and the spec's own Bob and Carol (specUser(spec, …), made here if need be), each signed in
 * in a browser context of their own (for a spec's beforeAll; its afterAll closes them).
 */
export async function assistantsUsers(browser: Browser, spec: string): Promise<AssistantsUsers> {
  const BOB = specUser(spec, 'Bob User');
  const CAROL = specUser(spec, 'Carol User');
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  await ensureUser(admin.request, CAROL);
  const bob = await browser.newContext();
  await signIn(bob, BOB);
  const carol = await browser.newContext();
  await signIn(carol, CAROL);
  return { admin, bob, carol };
}
