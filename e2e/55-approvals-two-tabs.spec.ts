// One conversation open in two tabs while a tool call waits for approval: what the tab whose answer did
// not count shows (the API's own refusals: 24-audit-access). The `tests` server's delete_all needs approval.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import {
  assistantMessages,
  composer,
  conversationIdFromUrl,
  ensureUsers,
  fakeModelRequests,
  send,
  signIn,
  specUser,
} from './helpers';

const USER = specUser('s55', 'Tabs User');
let ctx: BrowserContext;

test.beforeAll(async ({ browser }) => {
  await ensureUsers(browser, USER);
  ctx = await browser.newContext();
  await signIn(ctx, USER);
});

test.afterAll(async () => ctx.close());

const card = (page: Page) => page.locator('[data-tool-call][data-tool-name="delete_all"]').last();
const alert = (page: Page) => page.locator('[data-chat-error]');

/** Tab A sends `text` (a call of delete_all), tab B opens the same conversation; both wait for approval. */
async function twoTabs(text: string): Promise<[Page, Page]> {
  const a = await ctx.newPage();
  await a.goto('/');
  await send(a, `${text} [[tool:delete_all]]`);
  await expect(a).toHaveURL(/\/c\//);
  await expect(card(a)).toHaveAttribute('data-state', 'awaiting-approval');
  const b = await ctx.newPage();
  await b.goto(a.url());
  await expect(card(b)).toHaveAttribute('data-state', 'awaiting-approval');
  return [a, b];
}

test('approved in one tab, denied in the other: that tab says so and shows the call as it ran', async () => {
  const [a, b] = await twoTabs('s55 approve then deny');
  await card(a).getByRole('button', { name: 'Approve' }).click();
  await expect(card(a)).toHaveAttribute('data-state', 'done');
  await card(b).getByRole('button', { name: 'Deny' }).click();
  await expect(alert(b)).toContainText('This tool call was already answered.');
  // Not "Denied": the call ran, with its result and the answer that followed.
  await expect(card(b)).toHaveAttribute('data-state', 'done');
  await expect(card(b).locator('[data-tool-output]')).toContainText('deleted everything');
  await expect(assistantMessages(b).last()).toContainText('Tool results: deleted everything');
  // Nothing to retry (a regenerate would start that answer over): the notice only closes.
  await expect(alert(b).getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await alert(b).getByRole('button', { name: 'Close' }).click();
  await expect(alert(b)).toHaveCount(0);
  await expect(assistantMessages(b)).toHaveCount(1);
  // The tab goes on: a next message is answered.
  await send(b, 's55 next');
  await expect(assistantMessages(b).last()).toContainText('You said: s55 next');
  await Promise.all([a.close(), b.close()]);
});

test('denied in one tab, approved in the other while that answer goes on: the denial shows, not a call running forever', async () => {
  // Each model reply waits 2 s: the answer after the denial still runs when the other tab approves.
  const [a, b] = await twoTabs('s55 deny then approve [[delay:2000]]');
  await card(a).getByRole('button', { name: 'Deny' }).click();
  await expect(card(a)).toHaveAttribute('data-state', 'denied');
  await card(b).getByRole('button', { name: 'Approve' }).click();
  await expect(alert(b)).toContainText('This tool call was already answered.');
  await expect(card(b)).toHaveAttribute('data-state', 'denied');
  // The tab follows that answer to its end.
  await expect(assistantMessages(b).last()).toContainText('Tool results: The user denied this call.');
  await expect(composer(b)).toBeEditable();
  await Promise.all([a.close(), b.close()]);
});

test('a message sent in one tab skips the call; Approve in the other says it was answered, and shows that message', async () => {
  const [a, b] = await twoTabs('s55 skipped');
  await send(b, 's55 something else');
  await expect(assistantMessages(b).last()).toContainText('You said: s55 something else');
  await card(a).getByRole('button', { name: 'Approve' }).click();
  await expect(alert(a)).toContainText('This tool call was already answered.');
  await expect(card(a)).toHaveAttribute('data-state', 'denied');
  await expect(assistantMessages(a).last()).toContainText('You said: s55 something else');
  await Promise.all([a.close(), b.close()]);
});

test('deleted in one tab, approved in the other: "not found", the call does not run, nothing comes back', async () => {
  const [a, b] = await twoTabs('s55 doomed');
  const id = conversationIdFromUrl(a);
  await a.getByRole('button', { name: /^Delete s55 doomed/ }).click();
  await a
    .getByRole('dialog', { name: 'Delete conversation?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(a).toHaveURL(/\/$/);

  await card(b).getByRole('button', { name: 'Approve' }).click();
  await expect(alert(b)).toContainText('Conversation not found.');
  // The answer did not count: the card does not claim the call runs.
  await expect(card(b)).toHaveAttribute('data-state', 'awaiting-approval');
  await expect(composer(b)).toBeEditable();
  expect((await ctx.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  const list = (await (await ctx.request.get('/api/conversations')).json()) as unknown;
  expect(JSON.stringify(list)).not.toContain(id);
  const ran = (await fakeModelRequests(ctx.request)).filter((r) => {
    const text = JSON.stringify(r.body.messages);
    return text.includes('s55 doomed') && text.includes('deleted everything');
  });
  expect(ran).toEqual([]);
  await Promise.all([a.close(), b.close()]);
});
