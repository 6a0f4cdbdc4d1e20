// Issue 16: what an MCP server asks of the host while its tool runs — elicitation (form and URL),
// sampling (approve, deny, edit, "without asking", with tools) — shown inside the tool card and answered
// in a real browser (roots and tasks: 34-roots-tasks). The test MCP server runs as a real stdio child
// (TEST_MCP_RICH=1).
import { type BrowserContext, expect, test } from '@playwright/test';
import {
  ADMIN,
  ensureUser,
  fakeModelRequests,
  originHeaders,
  sendAllTools,
  signIn,
  specUser,
  streamChunks,
} from './helpers';
import { card, openChat, rich } from './rich-chat';

const BOB = specUser('s33', 'Bob User');
const CAROL = specUser('s33', 'Carol User');
const h = originHeaders();

let admin: BrowserContext;
let bob: BrowserContext;
let carol: BrowserContext;
const ids: string[] = [];
let restoreToolSearch: () => Promise<void>;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  await ensureUser(admin.request, CAROL);
  bob = await browser.newContext();
  await signIn(bob, BOB);
  carol = await browser.newContext();
  await signIn(carol, CAROL);
  // Two more rich servers put the catalog past the tool search budget; these tests call tools directly.
  restoreToolSearch = await sendAllTools(admin.request);
  for (const config of [rich('t33ask'), rich('t33auto', { sampling: 'auto' })]) {
    const res = await admin.request.post('/api/mcp/servers', { data: config, headers: h });
    expect(res.status(), await res.text()).toBe(201);
    ids.push((await res.json()).id);
  }
});

test.afterAll(async () => {
  for (const id of ids) await admin.request.delete(`/api/mcp/servers/${id}`, { headers: h });
  await restoreToolSearch();
  await Promise.all([admin.close(), bob.close(), carol.close()]);
});

test('elicitation: a form in the tool card, checked before sending, kept across a reload, answered once', async () => {
  const page = await openChat(bob, '[[tool:t33ask__ask_details]]');
  const form = card(page, 'ask_details').locator('[data-elicitation="t33ask"]');
  await expect(form).toBeVisible();
  await expect(form).toContainText('Tell us about your order');
  const requestId = (await form.getAttribute('data-request-id')) as string;
  const conversation = /\/c\/([^/?#]+)/.exec(page.url())?.[1] as string;
  const answerUrl = `/api/chat/${conversation}/requests/${requestId}`;

  // Another user cannot answer it, and the server checks the form as the browser does.
  const foreign = await carol.request.post(answerUrl, { data: { action: 'decline' }, headers: h });
  expect(foreign.status()).toBe(404);
  const bad = await bob.request.post(answerUrl, {
    data: { action: 'accept', content: { name: 'A', email: 'nope', size: 'huge' } },
    headers: h,
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.fields).toMatchObject({ 'content.email': 'Enter an email address.' });

  // A reload shows the same pending form (it is part of the running turn).
  await page.reload();
  await expect(form).toBeVisible();
  await form.getByLabel('Your name *').fill('A');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form).toContainText('Use at least 2 characters.');
  await expect(form).toContainText('This field is required.');
  await form.getByLabel('Your name *').fill('Ada');
  await form.getByLabel('Email *').fill('ada@example.com');
  await form.getByLabel('Size *').selectOption('medium');
  await form.getByLabel('Quantity').fill('3');
  await form.getByLabel('olives').check();
  await form.getByRole('button', { name: 'Submit' }).click();

  await expect(card(page, 'ask_details')).toHaveAttribute('data-state', 'done');
  await expect(card(page, 'ask_details').locator('[data-tool-output]')).toContainText(
    'Submitted: {"name":"Ada","email":"ada@example.com","size":"medium","quantity":3,"gift":false,"toppings":["olives"]}',
  );
  await expect(form).toHaveAttribute('data-status', 'accepted');
  // A second answer (another tab, a double click) changes nothing.
  const again = await bob.request.post(answerUrl, { data: { action: 'decline' }, headers: h });
  expect(again.status()).toBe(409);
  // Stored with the answer: after a reload the card shows what was sent, and no form.
  await page.reload();
  await expect(form).toHaveAttribute('data-status', 'accepted');
  await expect(form.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await page.close();
});

test('elicitation: Decline goes back to the tool', async () => {
  const page = await openChat(bob, '[[tool:t33ask__ask_details]]');
  const form = card(page, 'ask_details').locator('[data-elicitation="t33ask"]');
  await form.getByRole('button', { name: 'Decline' }).click();
  await expect(card(page, 'ask_details').locator('[data-tool-output]')).toHaveText('Declined');
  await expect(form).toHaveAttribute('data-status', 'declined');
  await page.close();
});

test('elicitation, URL mode: the domain is shown, the link opens in a new tab, completion is reported', async () => {
  const page = await openChat(bob, '[[tool:t33ask__open_link]]');
  const request = card(page, 'open_link').locator('[data-elicitation="t33ask"]');
  await expect(request.locator('[data-elicitation-domain]')).toHaveText('pay.example.com');
  await expect(request.getByRole('button', { name: 'Decline' })).toBeVisible();
  await expect(request.getByRole('button', { name: 'Cancel' })).toBeVisible();
  const link = request.getByRole('link', { name: 'Open pay.example.com' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  // The page itself is outside the test network: stop the new tab from loading it.
  await bob.route('https://pay.example.com/**', (route) => route.fulfill({ body: 'ok' }));
  const [popup] = await Promise.all([bob.waitForEvent('page'), link.click()]);
  await popup.close();
  await expect(request).toHaveAttribute('data-status', 'completed');
  await expect(card(page, 'open_link').locator('[data-tool-output]')).toHaveText('Link flow finished');
  await page.close();
});

test('sampling: approved, it runs on the conversation model and the answer goes back', async () => {
  const page = await openChat(bob, '[[tool:t33ask__summarize:{"text":"the quick brown fox"}]]');
  const request = card(page, 'summarize').locator('[data-sampling="t33ask"]');
  await expect(request).toContainText('System prompt: You are terse.');
  await expect(request).toContainText('Summarize: the quick brown fox');
  await expect(request).toContainText('up to 120 tokens');
  await request.getByRole('button', { name: 'Edit message' }).click();
  await request.getByLabel('Message to send instead').fill('Summarize: a lazy dog');
  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(card(page, 'summarize').locator('[data-tool-output]')).toHaveText(
    'Model said: You said: Summarize: a lazy dog',
  );
  await expect(request).toHaveAttribute('data-status', 'done');
  await expect(request.locator('[data-sampling-answer]')).toContainText('You said: Summarize: a lazy dog');
  await page.close();
});

test('sampling: denied, the server is refused and the model is not called', async () => {
  const page = await openChat(bob, '[[tool:t33ask__summarize:{"text":"secret plans"}]]');
  const request = card(page, 'summarize').locator('[data-sampling="t33ask"]');
  await request.getByRole('button', { name: 'Deny' }).click();
  await expect(card(page, 'summarize')).toHaveAttribute('data-state', 'error');
  await expect(card(page, 'summarize').locator('[data-tool-error]')).toContainText(
    /Sampling failed: .*User rejected sampling request/,
  );
  await expect(request).toHaveAttribute('data-status', 'denied');
  const asked = (await fakeModelRequests(bob.request)).filter((r) =>
    JSON.stringify(r.body.messages).includes('Summarize: secret plans'),
  );
  expect(asked).toEqual([]);
  await page.close();
});

test('sampling "without asking": runs at once, still shown in the card', async () => {
  const res = await bob.request.post('/api/chat', {
    data: {
      id: `t33-${Date.now()}`,
      message: {
        id: `t33-${Date.now()}-m`,
        role: 'user',
        parts: [{ type: 'text', text: '[[tool:t33auto__summarize:{"text":"weather"}]]' }],
      },
    },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const chunks = streamChunks(await res.text());
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output as {
    content: Array<{ text: string }>;
  };
  expect(output.content[0]?.text).toBe('Model said: You said: Summarize: weather');
  const sampling = chunks
    .filter((c) => c.type === 'data-sampling')
    .map((c) => (c.data as { status: string }).status);
  expect(sampling).toEqual(['running', 'done']);
});

test("sampling with tools: the model calls the server's tool, the server answers, the model finishes", async () => {
  const res = await bob.request.post('/api/chat', {
    data: {
      id: `t33t-${Date.now()}`,
      message: {
        id: `t33t-${Date.now()}-m`,
        role: 'user',
        parts: [{ type: 'text', text: '[[tool:t33auto__plan_trip:{"city":"Paris"}]]' }],
      },
    },
    headers: h,
  });
  const chunks = streamChunks(await res.text());
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output as {
    content: Array<{ text: string }>;
  };
  expect(output.content[0]?.text).toBe('Plan: Tool results: sunny in Paris (after 1 tool calls)');
  // The second round reached the model with the tool call and its result, and the tool offered.
  const second = (await fakeModelRequests(bob.request)).findLast((r) => {
    const messages = JSON.stringify(r.body.messages);
    return messages.includes('Plan a day in Paris') && messages.includes('sunny in Paris');
  });
  expect(JSON.stringify(second?.body.tools)).toContain('get_weather');
  expect(second?.body.messages.map((m) => (m as { role: string }).role)).toEqual([
    'user',
    'assistant',
    'tool',
  ]);
});
