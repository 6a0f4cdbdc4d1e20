import { resolve } from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, test } from '@playwright/test';
import { ADMIN, ensureUser, originHeaders, signIn, specUser } from './helpers';

const BOB = specUser('s22', 'Bob User');

/** What a broken server leaks if its failures reach users raw: its stderr, env, URL credentials, headers. */
const CANARIES = [
  'A3-STDERR-CANARY',
  'A3-ENV-CANARY',
  'A3-URL-CANARY',
  'A3-QUERY-CANARY',
  'A3-HEADER-CANARY',
];
/** Host-level detail that is not secret but is not for users either. */
const INTERNALS = ['127.0.0.1:9', 'crashing on purpose', 'MCP error -32000', 'Connection closed', 'stderr'];
const REF = /\(ref ([0-9a-f]{8})\)/;
const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const h = originHeaders();

type Server = { id: string; name: string; status: { status: string } };
const SERVERS = {
  // Writes its stderr canary (with its configured env value) and exits before speaking MCP.
  a3dead: {
    transport: 'stdio',
    scope: 'shared',
    command: 'node',
    args: ['-e', "console.error('A3-STDERR-CANARY ' + process.env.A3_SECRET); process.exit(3)"],
    env: { A3_SECRET: 'A3-ENV-CANARY' },
  },
  // Nothing listens on port 9; the URL carries credentials in its userinfo and query.
  a3remote: {
    transport: 'http',
    scope: 'shared',
    url: 'http://user:A3-URL-CANARY@127.0.0.1:9/mcp?token=A3-QUERY-CANARY',
    headers: { Authorization: 'Bearer A3-HEADER-CANARY' },
    allowPrivateNetwork: true,
  },
  // A working server whose `crash` tool kills it mid-call.
  a3crash: {
    transport: 'stdio',
    scope: 'shared',
    command: 'node',
    args: [FIXTURE, 'stdio'],
    env: { A3_SECRET: 'A3-ENV-CANARY' },
  },
} as const;

async function servers(request: APIRequestContext): Promise<Server[]> {
  return (await (await request.get('/api/mcp/servers')).json()).items as Server[];
}
async function removeServers(request: APIRequestContext): Promise<void> {
  for (const s of await servers(request))
    if (s.name in SERVERS) await request.delete(`/api/mcp/servers/${s.id}`, { headers: h });
}
const serverId = async (request: APIRequestContext, name: string) =>
  (await servers(request)).find((s) => s.name === name)?.id ?? '';

/** Nothing a non-admin receives may hold a canary or host-level detail. */
function expectClean(what: string, text: string): void {
  for (const needle of [...CANARIES, ...INTERNALS])
    expect(text, `${what} holds "${needle}"`).not.toContain(needle);
}

/** The chunks of a UI message stream (SSE) body. */
const chunks = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; errorText?: string; delta?: string });

let admin: BrowserContext;
let bob: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  await removeServers(admin.request);
  for (const [name, config] of Object.entries(SERVERS)) {
    const res = await admin.request.post('/api/mcp/servers', { data: { name, ...config }, headers: h });
    expect(res.status(), await res.text()).toBe(201);
  }
  // The crash tool runs without an approval card, so the turn reaches the failure by itself.
  await expect
    .poll(async () => (await servers(admin.request)).find((s) => s.name === 'a3crash')?.status.status, {
      timeout: 20_000,
    })
    .toBe('connected');
  const approval = await admin.request.patch(
    `/api/mcp/servers/${await serverId(admin.request, 'a3crash')}/tools/crash`,
    { data: { approval: 'auto' }, headers: h },
  );
  expect(approval.status(), await approval.text()).toBe(200);
  bob = await browser.newContext();
  await signIn(bob, BOB);
});

test.afterAll(async () => {
  await removeServers(admin.request);
  await admin.close();
  await bob.close();
});

test('A3: catalogs, prompts and attached resources show a non-admin "unavailable" with a reference, never stderr, env, URL or credentials; the admin sees the detail', async () => {
  const tools = await bob.request.get('/api/tools');
  expect(tools.status()).toBe(200);
  const toolsText = await tools.text();
  expectClean('GET /api/tools', toolsText);
  const catalog = JSON.parse(toolsText) as { servers: Array<{ name: string; error: string | null }> };
  const refs = new Map<string, string>();
  for (const name of ['a3dead', 'a3remote']) {
    const error = catalog.servers.find((s) => s.name === name)?.error ?? '';
    expect(error).toMatch(new RegExp(`^Server "${name}" is unavailable .*${REF.source}`));
    refs.set(name, REF.exec(error)?.[1] ?? '');
  }

  for (const path of ['/api/prompts', '/api/resources']) {
    const res = await bob.request.get(path);
    expect(res.status(), path).toBe(200);
    expectClean(path, await res.text());
  }
  for (const server of ['a3dead', 'a3remote']) {
    const got = await bob.request.post('/api/prompts/get', {
      data: { server, name: 'anything' },
      headers: h,
    });
    expect(got.status()).toBe(503);
    const body = await got.text();
    expectClean(`prompts/get ${server}`, body);
    expect(JSON.parse(body).error.message).toMatch(
      new RegExp(`^Server "${server}" is unavailable .*${REF.source}`),
    );
    const completed = await bob.request.post('/api/prompts/complete', {
      data: { server, prompt: 'p', argument: 'a', value: 'x' },
      headers: h,
    });
    expect(completed.status()).toBe(200);
    expectClean(`prompts/complete ${server}`, await completed.text());
  }

  // Attaching a resource of the remote server to a message: refused, with the status only.
  const id = `a3-attach-${Date.now()}`;
  const attach = await bob.request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [
          { type: 'text', text: 'read it' },
          { type: 'data-resource', data: { server: 'a3remote', uri: 'test://docs/readme' } },
        ],
      },
    },
    headers: h,
  });
  expect(attach.status()).toBe(400);
  const attachBody = await attach.text();
  expectClean('POST /api/chat with a resource', attachBody);
  expect(JSON.parse(attachBody).error.message).toMatch(
    new RegExp(`Server "a3remote" is unavailable .*${REF.source}`),
  );

  // The composer's Tools menu, as rendered for the user.
  const page = await bob.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: /^Tools · / }).click();
  const menu = page.getByRole('dialog', { name: 'Tool settings' });
  await expect(menu.locator('[data-tool-server="a3remote"]')).toContainText(
    /is unavailable .*\(ref [0-9a-f]{8}\)/,
  );
  await expect(menu.locator('[data-tool-server="a3dead"]')).toContainText(
    /is unavailable .*\(ref [0-9a-f]{8}\)/,
  );
  expectClean('the rendered Tools menu', await page.content());
  await page.close();

  // The admin finds each reference on the server's logs page, with the detail.
  const remoteLogs = await (
    await admin.request.get(`/api/mcp/servers/${await serverId(admin.request, 'a3remote')}/logs`)
  ).json();
  const remoteNote = (remoteLogs.failures as Array<{ ref: string; detail: string }>).find(
    (f) => f.ref === refs.get('a3remote'),
  );
  expect(remoteNote?.detail).toContain('127.0.0.1:9/mcp');
  const deadLogs = await (
    await admin.request.get(`/api/mcp/servers/${await serverId(admin.request, 'a3dead')}/logs`)
  ).json();
  expect((deadLogs.failures as Array<{ ref: string }>).map((f) => f.ref)).toContain(refs.get('a3dead'));
  expect((deadLogs.stderr as string[]).join('\n')).toContain('A3-STDERR-CANARY');
});

test('A3: a tool call that loses its server shows the user and the model "unavailable" with a reference; the admin\'s call log has the detail', async () => {
  const id = `a3-crash-${Date.now()}`;
  const res = await bob.request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [{ type: 'text', text: 'Crash it [[tool:a3crash__crash]]' }],
      },
    },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const stream = await res.text();
  expectClean('the streamed answer', stream);
  const errorText = chunks(stream).find((c) => c.type === 'tool-output-error')?.errorText ?? '';
  expect(errorText).toMatch(
    new RegExp(`Could not run a3crash\\.crash: Server "a3crash" is unavailable .*${REF.source}`),
  );
  const ref = REF.exec(errorText)?.[1];
  // The model got the same status (the fake model echoes tool results), and answered with it.
  const answer = chunks(stream)
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');
  expect(answer).toMatch(
    /^Tool results: .*Could not run a3crash\.crash: Server .*a3crash.* is unavailable \(no connection\)/,
  );
  expect(answer).toContain(`(ref ${ref})`);

  // The stored conversation and the rendered page say the same, and nothing more.
  expectClean(
    'GET /api/conversations/[id]',
    await (await bob.request.get(`/api/conversations/${id}`)).text(),
  );
  const page = await bob.newPage();
  await page.goto(`/c/${id}`);
  const card = page.locator('[data-tool-call][data-server="a3crash"][data-tool-name="crash"]');
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.locator('[data-tool-error]')).toContainText(`(ref ${ref})`);
  expectClean('the rendered conversation', await page.content());
  await page.close();

  const logs = await (
    await admin.request.get(`/api/mcp/servers/${await serverId(admin.request, 'a3crash')}/logs`)
  ).json();
  const call = (logs.calls as Array<{ tool: string; outcome: string; error: string | null }>).find((c) =>
    c.error?.startsWith(`ref ${ref}: `),
  );
  expect(call).toMatchObject({ tool: 'crash', outcome: 'error' });
  expect(call?.error).toMatch(/Lost the connection to "a3crash" while the request was pending/);
  expect((logs.stderr as string[]).join('\n')).toContain('crashing on purpose');
});
