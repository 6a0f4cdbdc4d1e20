import { expect, type Page, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  holdScripts,
  originHeaders,
  signIn,
  specUser,
} from './helpers';

// Languages (SPEC §7.4): the UI follows the browser's Accept-Language until the user picks a language;
// the pick is stored for the user (every device they sign in on) and in a cookie (signed-out pages).

const LIN = specUser('s44', 'Lin User');
const EARLY = specUser('s44', 'Early User');

test.beforeAll(async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, LIN);
  await ensureUser(admin.request, EARLY);
  await admin.close();
});

const language = (page: Page, name: 'Language' | '语言') => page.getByLabel(name, { exact: true });

test('a Chinese browser gets Chinese, an English one English; the pick overrides and follows the user', async ({
  browser,
}) => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  await signIn(zh, LIN);
  const page = await zh.newPage();
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('searchbox', { name: '搜索对话' })).toHaveAttribute('placeholder', '搜索…');
  await expect(page.getByText('还没有对话。')).toBeVisible();
  await expect(page.getByRole('button', { name: '快捷键' })).toBeVisible();
  await page.getByRole('button', { name: '快捷键' }).click();
  await expect(page.getByRole('dialog', { name: '键盘快捷键' })).toBeVisible();
  await page.keyboard.press('Escape');

  const en = await browser.newContext({ locale: 'en-US' });
  await signIn(en, LIN);
  const enPage = await en.newPage();
  await enPage.goto('/');
  await expect(enPage.locator('html')).toHaveAttribute('lang', 'en');
  await expect(enPage.getByRole('searchbox', { name: 'Search conversations' })).toBeVisible();

  // Picked in the Chinese browser: English from now on, after a reload too.
  await language(page, '语言').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Shortcuts' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search conversations' })).toBeVisible();

  // Stored for the user: the English browser, told Chinese, now shows it on every device of the user…
  await language(enPage, 'Language').selectOption('zh-CN');
  await expect(enPage.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const other = await browser.newContext({ locale: 'en-GB' });
  await signIn(other, LIN);
  const otherPage = await other.newPage();
  await otherPage.goto('/');
  await expect(otherPage.getByRole('searchbox', { name: '搜索对话' })).toBeVisible();

  // …and in a cookie, so the sign-in page after signing out keeps the language.
  await enPage.getByRole('button', { name: '退出登录' }).click();
  await expect(enPage).toHaveURL(/\/sign-in/);
  await expect(enPage.locator('html')).toHaveAttribute('lang', 'zh-CN');

  await Promise.all([zh.close(), en.close(), other.close()]);
});

test('a language picked before the page has hydrated is applied once it has, and stored', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ locale: 'en-US' });
  await signIn(ctx, EARLY);
  const page = await ctx.newPage();
  // The page's scripts are held: the server's HTML select is all there is when the user picks.
  const release = await holdScripts(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await language(page, 'Language').selectOption('zh-CN');
  release();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('searchbox', { name: '搜索对话' })).toBeVisible();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await ctx.close();
});

test('the language route validates its input and refuses other sites', async ({ playwright }) => {
  const anon = await playwright.request.newContext({ baseURL: APP_URL });
  const bad = await anon.put('/api/account/locale', { data: { locale: 'fr' }, headers: originHeaders() });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.fields).toHaveProperty('locale');
  const foreign = await anon.put('/api/account/locale', {
    data: { locale: 'en' },
    headers: { origin: 'https://evil.test' },
  });
  expect(foreign.status()).toBe(403);
  // Signed out, a pick is a cookie only, and the page then uses it.
  const ok = await anon.put('/api/account/locale', { data: { locale: 'zh-CN' }, headers: originHeaders() });
  expect(ok.status()).toBe(200);
  expect(ok.headers()['set-cookie']).toMatch(/^locale=zh-CN; Path=\/; Max-Age=31536000; SameSite=Lax/);
  const signInPage = await anon.get('/sign-in');
  expect(await signInPage.text()).toContain('<html lang="zh-CN"');
  await anon.dispose();
});

test('API errors answer in the request’s language; unknown details stay as written', async ({
  playwright,
}) => {
  const zh = await playwright.request.newContext({
    baseURL: APP_URL,
    extraHTTPHeaders: { 'accept-language': 'zh-CN,zh;q=0.9' },
  });
  const anonymous = await zh.get('/api/conversations');
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error).toEqual({ code: 'unauthorized', message: '请先登录。' });
  const en = await playwright.request.newContext({ baseURL: APP_URL });
  expect((await (await en.get('/api/conversations')).json()).error.message).toBe('Sign in first.');
  // Field messages too: a bad language pick names its field in Chinese… and the known ones translate.
  const bad = await zh.put('/api/account/locale', {
    data: Buffer.from('{ not json'),
    headers: { ...originHeaders(), 'content-type': 'application/json' },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toBe('请求内容不是有效的 JSON。');
  await Promise.all([zh.dispose(), en.dispose()]);
});

test('admin pages speak Chinese too: the audit log, a server’s logs and tools, dates in the Chinese format', async ({
  browser,
}) => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  await signIn(zh, ADMIN);
  const page = await zh.newPage();
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: '审计日志' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: '审计筛选' }).getByRole('link', { name: '管理操作' }),
  ).toBeVisible();

  const servers = (await (await page.request.get('/api/mcp/servers')).json()) as {
    items: Array<{ id: string; name: string }>;
  };
  const tests = servers.items.find((s) => s.name === 'tests');
  expect(tests).toBeDefined();
  await page.goto(`/admin/mcp/${tests?.id}`);
  await expect(page).toHaveTitle('MCP 服务器');
  await expect(page.getByRole('heading', { name: '日志', exact: true })).toBeVisible();
  await expect(page.getByText('最近的调用')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /^启用 / }).first()).toBeVisible();
  await expect(page.getByText('Recent calls')).toHaveCount(0);

  // An answer without the API's JSON error (a proxy's error page) is worded in Chinese, with its status.
  await page.route('**/test', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }),
  );
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'HTTP 502' })).toHaveText(
    '服务器返回了错误（HTTP 502）。请稍后重试。',
  );
  await zh.close();
});

test('the chat speaks Chinese: the composer, a prompt’s arguments, a message’s actions, the header and the sidebar', async ({
  browser,
}) => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  await signIn(zh, LIN);
  const page = await zh.newPage();
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('link', { name: '新对话', exact: true })).toBeVisible();
  const box = page.getByRole('textbox', { name: '消息', exact: true });
  await expect(box).toHaveAttribute('placeholder', '发送消息…');
  await expect(page.getByRole('button', { name: '附加文件' })).toBeVisible();

  // The `/` menu describes the built-in commands in Chinese; `@` marks a resource template as 模板.
  await box.fill('/');
  await expect(page.getByRole('option', { name: /^\/new/ })).toContainText('开始新对话');
  await expect(page.getByRole('option', { name: /^\/mode off/ })).toContainText('工具：不发送任何工具');
  await box.fill('@item');
  await expect(page.getByRole('option', { name: /^item/ })).toContainText('test://items/{id} (模板)');

  // An MCP prompt's arguments dialog: its name, its buttons, and what a blank required argument says.
  await box.fill('/');
  await page.getByRole('option', { name: /^\/tests:greeting/ }).click();
  const args = page.getByRole('dialog', { name: 'tests:greeting 的参数' });
  await args.getByRole('combobox', { name: /^name/ }).fill(' ');
  await args.getByRole('button', { name: '插入', exact: true }).click();
  await expect(args.getByRole('alert')).toHaveText('必填：name');
  await args.getByRole('button', { name: '取消', exact: true }).click();
  await expect(args).toHaveCount(0);

  await box.fill('你好，世界');
  await box.press('Enter');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('You said: 你好，世界');
  await answer.hover();
  await expect(answer.getByRole('button', { name: '复制', exact: true })).toBeVisible();
  await expect(answer.getByRole('button', { name: '重新生成' })).toBeVisible();
  const question = page.locator('[data-role="user"]').last();
  await question.hover();
  await question.getByRole('button', { name: '编辑', exact: true }).click();
  await expect(page.getByRole('textbox', { name: '编辑消息' })).toHaveValue('你好，世界');
  await expect(page.getByRole('button', { name: '保存并发送' })).toBeVisible();
  await question.getByRole('button', { name: '取消', exact: true }).click();

  await expect(page.getByRole('button', { name: '分享', exact: true })).toBeVisible();
  await expect(page.getByText('导出', { exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: '对话', exact: true })).toBeVisible();
  // None of the English names are left on the page.
  for (const english of ['Regenerate', 'Attach files', 'New chat', 'Share']) {
    await expect(page.getByRole('button', { name: english, exact: true })).toHaveCount(0);
  }

  // Its share page too, with the signed-in viewer's button.
  const shared = await zh.request.post(`/api/conversations/${conversationIdFromUrl(page)}/share`, {
    data: {},
    headers: originHeaders(),
  });
  await page.goto((await shared.json()).url);
  await expect(page.getByText('共享的对话 · 只读')).toBeVisible();
  await expect(page.getByRole('button', { name: '在新对话中继续' })).toBeVisible();
  await zh.close();
});

test('signed out, the sign-in page is Chinese; so are Admin → MCP servers and Providers', async ({
  browser,
}) => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  const page = await zh.newPage();
  await page.goto('/sign-in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
  await expect(page.getByLabel('邮箱')).toBeVisible();
  await expect(page.getByLabel('密码')).toBeVisible();
  await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
  await expect(page.getByText('Password', { exact: true })).toHaveCount(0);

  await signIn(zh, ADMIN);
  await page.goto('/admin/mcp');
  await expect(page).toHaveTitle('MCP 服务器');
  const nav = page.getByRole('navigation', { name: '管理' });
  await expect(nav.getByRole('link', { name: 'MCP 服务器' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'MCP 服务器' })).toBeVisible();
  await expect(page.getByRole('button', { name: '添加服务器' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '错误率' })).toBeVisible();
  await expect(page.locator('[data-server-row="tests"] [data-status]')).toHaveText(
    /^(已连接|连接中|空闲|错误|已停用)$/,
  );
  await expect(page.getByText('Add server')).toHaveCount(0);
  await page.getByRole('button', { name: '导入' }).click();
  await expect(page.getByRole('dialog', { name: '导入 MCP 服务器' })).toBeVisible();
  await page.getByRole('button', { name: '取消' }).click();

  await nav.getByRole('link', { name: '模型提供方' }).click();
  await expect(page.getByRole('heading', { name: '模型提供方', level: 1 })).toBeVisible();
  await expect(page.getByText('来自环境变量（只读）')).toBeVisible();
  await page.getByRole('button', { name: '添加提供方' }).click();
  await expect(page.getByRole('form', { name: '添加提供方' }).getByLabel('基础 URL')).toBeVisible();
  await expect(page.getByText('Model providers')).toHaveCount(0);
  await zh.close();
});
