import { expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { ADMIN, ensureUser, originHeaders, signIn, specUser, streamChunks } from './helpers';

const BOB = specUser('s24', 'Bob User');

const h = originHeaders();
const newId = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const userMessage = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

test('A1: admin pages load no admin data for anonymous or non-admin requests, and an anonymous / carries no models', async ({
  browser,
  playwright,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  // An admin action whose trace (an email) shows up on /admin/audit and /admin/users.
  const canary = `audit-canary-${Date.now()}@example.com`;
  const created = await admin.request.post('/api/admin/users', {
    data: { name: 'Canary', email: canary, password: 'canary-pass-1', role: 'user' },
    headers: h,
  });
  expect(created.status()).toBe(201);
  const adminAudit = await admin.request.get('/admin/audit');
  expect(await adminAudit.text(), 'the admin sees the entry (the probe is real)').toContain(canary);

  const anon = await playwright.request.newContext({ baseURL: APP_URL, maxRedirects: 0 });
  const bob = await browser.newContext();
  await signIn(bob, BOB);
  for (const path of ['/admin/audit', '/admin/users', '/admin/mcp', '/admin/providers']) {
    for (const rsc of [false, true]) {
      const headers: Record<string, string> = rsc ? { rsc: '1' } : {};
      const a = await anon.get(path, { headers });
      expect([303, 307], `anonymous ${path}`).toContain(a.status());
      expect(await a.text(), `anonymous ${path} rsc=${rsc}`).not.toContain(canary);
      const b = await bob.request.get(path, { headers, maxRedirects: 0 });
      if (!rsc) expect(b.status(), `non-admin ${path}`).toBe(404);
      const text = await b.text();
      expect(text, `non-admin ${path} rsc=${rsc}`).not.toContain(canary);
      expect(text, `non-admin ${path} rsc=${rsc}`).not.toContain(ADMIN.email);
    }
  }
  // The new-chat page: nothing about providers or models before sign-in.
  for (const rsc of [false, true]) {
    const res = await anon.get('/', { headers: rsc ? { rsc: '1' } : {} });
    expect([303, 307]).toContain(res.status());
    const text = await res.text();
    expect(text).not.toContain('fake-model');
    expect(text).not.toContain('toolCalling');
  }
  await Promise.all([anon.dispose(), admin.close(), bob.close()]);
});

test('A2: an approval is answered once: concurrent, repeated and contradicting answers get 409 and the tool runs once', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const servers = (await (await admin.request.get('/api/mcp/servers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  const tests = servers.find((s) => s.name === 'tests');
  const deleteCalls = async () => {
    const logs = (await (await admin.request.get(`/api/mcp/servers/${tests?.id}/logs`)).json()) as {
      calls: Array<{ tool: string }>;
    };
    return logs.calls.filter((c) => c.tool === 'delete_all').length;
  };
  const before = await deleteCalls();

  const id = newId('appr');
  const first = await admin.request.post('/api/chat', {
    data: { id, message: userMessage(`${id}-m`, 'Clean up [[tool:delete_all]]') },
    headers: h,
  });
  expect(first.status()).toBe(200);
  const request = streamChunks(await first.text()).find((c) => c.type === 'tool-approval-request');
  const approvalId = request?.approvalId as string;
  expect(approvalId).toBeTruthy();

  const answer = (approved: boolean) =>
    admin.request.post('/api/chat', { data: { id, approvals: [{ id: approvalId, approved }] }, headers: h });
  const both = await Promise.all([answer(true), answer(true), answer(true)]);
  const statuses = both.map((r) => r.status()).sort();
  expect(statuses).toEqual([200, 409, 409]);
  for (const r of both) {
    if (r.status() === 409) expect((await r.json()).error.code).toBe('conflict');
    else expect(streamChunks(await r.text()).some((c) => c.type === 'tool-output-available')).toBe(true);
  }
  // Deny after Approve, and a replay of the same approval: refused, nothing runs.
  expect((await answer(false)).status()).toBe(409);
  expect((await answer(true)).status()).toBe(409);
  expect(await deleteCalls()).toBe(before + 1);
  const stored = await (await admin.request.get(`/api/conversations/${id}`)).json();
  const parts = stored.messages.at(-1).parts as Array<{
    type: string;
    state?: string;
    approval?: { approved?: boolean };
  }>;
  const call = parts.find((p) => p.type === 'dynamic-tool');
  expect(call?.state).toBe('output-available');
  expect(call?.approval?.approved).toBe(true);
  await admin.close();
});

test("A12: an edit sent under a streaming message's id is refused and stops nothing; an edit is a new version, and the stopped answer never takes over the conversation", async ({
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const id = newId('edit');
  const messageId = `${id}-m`;
  const streaming = admin.request.post('/api/chat', {
    data: { id, message: userMessage(messageId, 'Long [[words:400]] [[slow:25]]') },
    headers: h,
    timeout: 60_000,
  });
  await expect.poll(async () => (await admin.request.get(`/api/conversations/${id}`)).status()).toBe(200);

  // Another message while the answer streams: refused with a clear reason.
  const other = await admin.request.post('/api/chat', {
    data: { id, message: userMessage(`${id}-other`, 'Interrupting') },
    headers: h,
  });
  expect(other.status()).toBe(409);
  expect((await other.json()).error.message).toMatch(/still being written/);

  // Other text under the stored id: 409 naming the way to edit; the running answer goes on.
  const rewrite = await admin.request.post('/api/chat', {
    data: { id, message: userMessage(messageId, 'Edited [[say:fresh answer]]') },
    headers: h,
  });
  expect(rewrite.status()).toBe(409);
  expect((await rewrite.json()).error.fields).toHaveProperty(['message.id']);
  expect((await (await admin.request.get(`/api/conversations/${id}`)).json()).running).toBe(true);

  // Stop, then the edit as a new version beside the first message.
  await admin.request.post(`/api/chat/${id}/stop`, { headers: h });
  await (await streaming).text();
  const edit = await admin.request.post('/api/chat', {
    data: { id, parentId: null, message: userMessage(`${id}-m2`, 'Edited [[say:fresh answer]]') },
    headers: h,
  });
  expect(edit.status()).toBe(200);
  await edit.text();
  const stored = (await (await admin.request.get(`/api/conversations/${id}`)).json()) as {
    messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }>;
  };
  const texts = stored.messages.map((m) => `${m.role}: ${m.parts.map((p) => p.text ?? '').join('')}`);
  expect(texts).toEqual(['user: Edited [[say:fresh answer]]', 'assistant: fresh answer']);
  await admin.close();
});

test('A13: prefetched pages carry the same security headers as full loads', async ({
  browser,
  playwright,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const anon = await playwright.request.newContext({ baseURL: APP_URL });
  const securityHeaders = [
    'content-security-policy',
    'x-content-type-options',
    'x-frame-options',
    'referrer-policy',
  ];
  const prefetches: Array<Record<string, string>> = [
    { purpose: 'prefetch' },
    { 'sec-purpose': 'prefetch' },
    { 'next-router-prefetch': '1', rsc: '1' },
    { 'sec-purpose': 'prefetch;prerender' },
  ];
  for (const [ctx, path] of [
    [admin.request, '/'],
    [admin.request, '/admin/mcp'],
    [anon, '/sign-in'],
  ] as const) {
    const full = await ctx.get(path);
    for (const name of securityHeaders) expect(full.headers()[name], `${path} ${name}`).toBeTruthy();
    for (const headers of prefetches) {
      const res = await ctx.get(path, { headers });
      for (const name of securityHeaders)
        expect(res.headers()[name], `${path} ${JSON.stringify(headers)} ${name}`).toBeTruthy();
      expect(res.headers()['content-security-policy']?.replace(/'nonce-[^']+'/, '')).toBe(
        full.headers()['content-security-policy']?.replace(/'nonce-[^']+'/, ''),
      );
    }
  }
  await Promise.all([admin.close(), anon.dispose()]);
});
