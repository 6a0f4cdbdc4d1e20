import { existsSync, rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { APP_URL, NO_PROVIDER_URL } from '../playwright.config';
import { ADMIN, ensureUser, originHeaders, signIn, specUser } from './helpers';

const BOB = specUser('s08', 'Bob User');

const PWN = '/tmp/mcp-chat-pwn-e2e';
const EVIL_SERVER = {
  name: 'pwn',
  transport: 'stdio',
  command: 'sh',
  args: ['-c', `touch ${PWN}`],
  env: {},
  cwd: null,
};

/** Every admin API, with a body that would be valid for an admin. */
const ADMIN_CALLS: Array<{ method: 'get' | 'post' | 'patch' | 'delete'; path: string; data?: unknown }> = [
  { method: 'get', path: '/api/mcp/servers' },
  { method: 'post', path: '/api/mcp/servers', data: EVIL_SERVER },
  { method: 'post', path: '/api/mcp/servers/test', data: EVIL_SERVER },
  {
    method: 'post',
    path: '/api/mcp/servers/import',
    data: { mcpServers: { pwn: { command: 'sh', args: ['-c', `touch ${PWN}`] } } },
  },
  { method: 'get', path: '/api/mcp/servers/export' },
  { method: 'get', path: '/api/admin/providers' },
  {
    method: 'post',
    path: '/api/admin/providers',
    data: { name: 'evil', baseURL: 'http://127.0.0.1:9/v1', models: [] },
  },
  { method: 'post', path: '/api/admin/providers/models', data: { baseURL: 'http://127.0.0.1:9/v1' } },
  { method: 'get', path: '/api/admin/users' },
  {
    method: 'post',
    path: '/api/admin/users',
    data: { name: 'Eve', email: 'eve2@example.com', password: 'password-123', role: 'admin' },
  },
  { method: 'get', path: '/api/admin/settings' },
  { method: 'patch', path: '/api/admin/settings', data: { signupOpen: true } },
];

test.beforeAll(() => rmSync(PWN, { force: true }));

test('S1: anonymous callers get 401 and non-admins 403 on every admin API; nothing is spawned', async ({
  playwright,
  browser,
}) => {
  const anon = await playwright.request.newContext({ baseURL: APP_URL });
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  const servers = (await (await admin.request.get('/api/mcp/servers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  const tests = servers.find((s) => s.name === 'tests');
  expect(tests).toBeTruthy();
  const perServer = [
    { method: 'get' as const, path: `/api/mcp/servers/${tests?.id}` },
    {
      method: 'patch' as const,
      path: `/api/mcp/servers/${tests?.id}`,
      data: { command: 'sh', args: ['-c', `touch ${PWN}`] },
    },
    { method: 'post' as const, path: `/api/mcp/servers/${tests?.id}/test` },
    { method: 'get' as const, path: `/api/mcp/servers/${tests?.id}/logs` },
    { method: 'patch' as const, path: `/api/mcp/servers/${tests?.id}/tools/echo`, data: { enabled: false } },
    { method: 'delete' as const, path: `/api/mcp/servers/${tests?.id}` },
  ];
  const bob = await browser.newContext();
  await signIn(bob, BOB);
  for (const call of [...ADMIN_CALLS, ...perServer]) {
    const options = { data: call.data, headers: originHeaders() };
    expect(
      (await anon[call.method](call.path, options)).status(),
      `anonymous ${call.method} ${call.path}`,
    ).toBe(401);
    expect(
      (await bob.request[call.method](call.path, options)).status(),
      `non-admin ${call.method} ${call.path}`,
    ).toBe(403);
  }
  const page = await bob.newPage();
  for (const path of ['/admin/mcp', `/admin/mcp/${tests?.id}`, '/admin/providers', '/admin/users']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  }
  expect(existsSync(PWN)).toBe(false);
  const after = (await (await admin.request.get('/api/mcp/servers')).json()).items as Array<{
    name: string;
    command?: string;
  }>;
  expect(after.map((s) => s.name)).not.toContain('pwn');
  expect(after.find((s) => s.name === 'tests')?.command).toBe('node');
  // Every refused attempt is in the audit log, with who tried (when known).
  const audit = (await (await admin.request.get('/api/admin/audit')).json()).items as Array<{
    action: string;
    outcome: string;
    email: string | null;
  }>;
  const denied = audit.filter((e) => e.outcome === 'denied' && e.action === 'POST /api/mcp/servers/test');
  expect(denied.map((e) => e.email)).toEqual(expect.arrayContaining([null, BOB.email]));
  await Promise.all([anon.dispose(), admin.close(), bob.close()]);
});

test('S2: a signed-in admin is safe from cross-site requests (fetch and form posts)', async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  for (const origin of ['https://evil.test', 'null', NO_PROVIDER_URL]) {
    for (const call of ADMIN_CALLS.filter((c) => c.method !== 'get')) {
      const res = await admin.request[call.method](call.path, { data: call.data, headers: { origin } });
      expect(res.status(), `${origin} ${call.method} ${call.path}`).toBe(403);
    }
  }
  // A form auto-submitted by another site: the browser sends our cookie only under SameSite rules,
  // and the Origin check refuses it either way.
  const page = await admin.newPage();
  await page.setContent(
    `<form id="f" method="POST" action="${APP_URL}/api/mcp/servers" enctype="text/plain"><input name='{"name":"pwn","transport":"stdio","command":"sh","args":["-c","touch ${PWN}"],"x":"' value='"}'></form><script>document.getElementById('f').submit()</script>`,
  );
  await page.waitForLoadState('load');
  expect(existsSync(PWN)).toBe(false);
  const names = (
    (await (await admin.request.get('/api/mcp/servers')).json()).items as Array<{ name: string }>
  ).map((s) => s.name);
  expect(names).not.toContain('pwn');
  const settings = await (await admin.request.get('/api/admin/settings')).json();
  expect(settings.signupOpen).toBe(false);
  await admin.close();
});

test('admin input is validated: bad names, URLs and commands get 400 with field errors', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const h = originHeaders();
  const cases: Array<[unknown, string]> = [
    [{ name: 'has space', transport: 'stdio', command: 'node' }, 'name'],
    [{ name: 'x'.repeat(33), transport: 'stdio', command: 'node' }, 'name'],
    [{ name: 'remote1', transport: 'http', url: 'javascript:alert(1)' }, 'url'],
    [{ name: 'remote2', transport: 'http', url: 'file:///etc/passwd' }, 'url'],
    [{ name: 'cmd', transport: 'stdio', command: '' }, 'command'],
    [{ name: 'envy', transport: 'stdio', command: 'node', env: { 'BAD KEY': 'x' } }, 'env'],
  ];
  for (const [body, field] of cases) {
    const res = await admin.request.post('/api/mcp/servers', { data: body, headers: h });
    expect(res.status(), JSON.stringify(body)).toBe(400);
    const fields = Object.keys((await res.json()).error.fields ?? {});
    expect(
      fields.some((f) => f.startsWith(field)),
      `${field} in ${fields}`,
    ).toBe(true);
  }
  const dup = await admin.request.post('/api/mcp/servers', {
    data: { name: 'tests', transport: 'stdio', command: 'node' },
    headers: h,
  });
  expect(dup.status()).toBe(409);
  const badJson = await admin.request.post('/api/mcp/servers/import?dryRun=1', {
    data: Buffer.from('{not json'),
    headers: { ...h, 'content-type': 'application/json' },
  });
  expect(badJson.status()).toBe(400);
  await admin.close();
});

test('a form sent before its script runs keeps the password out of the URL, the history and the logs', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  // The page's scripts never arrive (a slow or filtering network): the server's HTML form is all there is.
  await page.route('**/_next/static/**/*.js', (route) => route.abort());
  await page.goto('/admin/users');
  const form = page.locator('form').filter({ hasText: 'Create user' });
  await form.getByLabel('Name').fill('Nojs User');
  await form.getByLabel('Email').fill('nojs@example.com');
  await form.getByLabel('Password').fill('nojs-secret-password-1');
  const sent = page.waitForRequest((req) => req.isNavigationRequest() && req.frame() === page.mainFrame());
  await form.getByLabel('Password').press('Enter');
  const request = await sent;
  expect(request.url()).not.toContain('nojs-secret-password-1');
  expect(request.method()).toBe('POST');
  await page.waitForLoadState('load');
  expect(page.url()).toBe(`${APP_URL}/admin/users`);
  // Nothing was created: without its script the form does nothing.
  const users = (await (await page.request.get('/api/admin/users')).json()).items as Array<{ email: string }>;
  expect(users.map((u) => u.email)).not.toContain('nojs@example.com');
});
