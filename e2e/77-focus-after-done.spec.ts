import { expect, test } from '@playwright/test';
import { enter, requestServersSpec } from './held-requests';
import { composer, originHeaders, specUser } from './helpers';
import { card, openChat } from './rich-chat';

// Where the focus goes once a control has done its work and gone (76-keyboard-chat-busy.spec.ts has these
// controls while busy, and Submit's end): a server request's card, answered, moves it from its form to the
// line saying the outcome (but never takes it from elsewhere); a value saved in the Tools menu moves it to
// the server's switch. Without that it falls to the page's start (document.body).

const KIM = specUser('s77', 'Kim Focus');
requestServersSpec('77', KIM);
const h = originHeaders();

test('elicitation: answered with Decline, the focus moves to the outcome line', async ({ page }) => {
  const chat = await openChat(page.context(), '[[tool:t77ask__ask_details]]');
  const request = card(chat, 'ask_details').locator('[data-elicitation="t77ask"]');
  await enter(chat, request.getByRole('button', { name: 'Decline' }));
  await expect(request).toHaveAttribute('data-status', 'declined');
  await expect(request.getByRole('status')).toBeFocused();
  await chat.close();
});

test('sampling: answered with Approve, the focus moves to the outcome line and stays there as it runs', async ({
  page,
}) => {
  const chat = await openChat(page.context(), '[[tool:t77ask__summarize:{"text":"the focus"}]]');
  const request = card(chat, 'summarize').locator('[data-sampling="t77ask"]');
  await enter(chat, request.getByRole('button', { name: 'Approve' }));
  await expect(request.getByRole('status')).toBeFocused();
  await expect(request).toHaveAttribute('data-status', 'done');
  await expect(card(chat, 'summarize').locator('[data-tool-output]')).toContainText('Model said:');
  await expect(request.getByRole('status')).toBeFocused();
  await chat.close();
});

test('sampling: answered elsewhere while the focus is in the message box, the focus stays there', async ({
  page,
}) => {
  const chat = await openChat(page.context(), '[[tool:t77ask__summarize:{"text":"elsewhere"}]]');
  const request = card(chat, 'summarize').locator('[data-sampling="t77ask"]');
  const requestId = await request.getAttribute('data-request-id');
  const conversationId = new URL(chat.url()).pathname.split('/').pop();
  const box = composer(chat);
  await box.focus();
  const res = await chat.request.post(`/api/chat/${conversationId}/requests/${requestId}`, {
    data: { action: 'deny' },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect(request).toHaveAttribute('data-status', 'denied');
  await expect(card(chat, 'summarize')).toHaveAttribute('data-state', 'error');
  await expect(box).toBeFocused();
  await chat.close();
});

test("server connect: the value saved, its form goes and the focus moves to the server's switch", async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /^Tools · / }).click();
  const row = page.getByRole('dialog', { name: 'Tool settings' }).locator('[data-tool-server="t77vals"]');
  const server = row.getByRole('checkbox').first();
  await expect(server).toBeDisabled();
  await row.getByLabel('Your T77_TOKEN for t77vals').fill('kim-secret');
  await enter(page, row.getByRole('button', { name: 'Save' }));
  await expect(row.locator('form')).toHaveCount(0);
  await expect(server).toBeEnabled();
  await expect(server).toBeFocused();
});
