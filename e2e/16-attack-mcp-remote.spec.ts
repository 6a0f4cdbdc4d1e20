// Hostile remote MCP servers: credentials that must stay with their own server, OAuth discovery
// that must not reach private ranges, and the `resource` a token is for. (Stdio: 16-attack-mcp-stdio.spec.ts.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import {
  h,
  type LoggedRequest,
  removeServer,
  type Server,
  startLoggingHttpServer,
  toolCard,
} from './attack-mcp';
import { ADMIN, send, sendAllTools, signIn } from './helpers';

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test('S12: credentials stay with their own remote server; our session cookie and tokens in URLs never go out', async ({
  page,
}) => {
  const tokenA = `tok-A-${Date.now()}`;
  const keyB = `key-B-${Date.now()}`;
  const a = await startLoggingHttpServer(`authorization:Bearer ${tokenA}`);
  const b = await startLoggingHttpServer(`x-api-key:${keyB}`);
  // Both servers are called from the first step; three test servers are past the tool search budget
  // (32-tool-search.spec.ts tests that), so it is raised for this test.
  const restoreToolSearch = await sendAllTools(page.request);
  try {
    for (const [name, url, headers] of [
      ['s12a', a.url, { Authorization: `Bearer ${tokenA}` }],
      ['s12b', b.url, { 'X-Api-Key': keyB }],
    ] as const) {
      await removeServer(page.request, name);
      const res = await page.request.post('/api/mcp/servers', {
        data: { name, transport: 'http', url: `${url}/mcp`, headers, allowPrivateNetwork: true },
        headers: h,
      });
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as Server;
      const tested = await (await page.request.post(`/api/mcp/servers/${id}/test`, { headers: h })).json();
      expect(tested.ok, JSON.stringify(tested)).toBe(true);
    }
    // A user's turn with the browser session calls both.
    await page.goto('/');
    await send(page, 'Both [[tool:s12a__echo:{"message":"to A"}]] [[tool:s12b__echo:{"message":"to B"}]]');
    await expect(toolCard(page, 's12a', 'echo')).toHaveAttribute('data-state', 'done');
    await expect(toolCard(page, 's12b', 'echo')).toHaveAttribute('data-state', 'done');
    await expect(toolCard(page, 's12b', 'echo').locator('[data-tool-output]')).toHaveText('to B');

    const session = (await page.context().cookies())
      .filter((c) => c.name.includes('session'))
      .map((c) => c.value);
    expect(session.length).toBeGreaterThan(0);
    const check = (requests: LoggedRequest[], own: [string, string], foreign: string) => {
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) {
        expect(r.headers[own[0]], `${r.method} ${r.path}`).toBe(own[1]);
        expect(r.headers.cookie).toBeUndefined();
        const all = JSON.stringify(r);
        expect(all).not.toContain(foreign);
        for (const value of session) expect(all).not.toContain(value);
        for (const secret of [tokenA, keyB, ...session]) expect(r.query).not.toContain(secret);
      }
    };
    check(a.requests(), ['authorization', `Bearer ${tokenA}`], keyB);
    check(b.requests(), ['x-api-key', keyB], tokenA);
    expect(b.requests().every((r) => r.headers.authorization === undefined)).toBe(true);
  } finally {
    await restoreToolSearch();
    await removeServer(page.request, 's12a');
    await removeServer(page.request, 's12b');
    a.stop();
    b.stop();
  }
});

/** A hostile remote server: 401 for everything, and OAuth metadata of the test's choosing. */
async function hostileServer(
  meta: (origin: string) => Record<string, unknown> | null,
  resourceMetadata?: string,
) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const m = meta(origin);
    if (req.url?.startsWith('/.well-known/oauth-protected-resource') && m)
      return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (req.url?.startsWith('/.well-known/oauth-authorization-server') && m) return json(m);
    if (req.url === '/register' && req.method === 'POST')
      return json({ client_id: 'evil-client', redirect_uris: [`${APP_URL}/api/mcp/oauth/callback`] });
    res.writeHead(401, {
      'www-authenticate': `Bearer resource_metadata="${resourceMetadata ?? `${origin}/.well-known/oauth-protected-resource/mcp`}"`,
    });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

/** Stands in for a private-range target (a metadata service, a LAN host): another loopback name, 127.0.0.2. */
async function privateSink() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}/latest/meta-data/iam`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

test('S11: OAuth discovery never reaches a private range the server names, and a sign-in URL that is not https is never handed to the browser', async ({
  page,
}) => {
  // A 401 whose resource_metadata names a private address other than the server's own host: never
  // fetched, even though the admin allowed the server itself on the private network.
  const sink = await privateSink();
  const named = await hostileServer(() => null, sink.url);
  await removeServer(page.request, 's11meta');
  expect(
    (
      await page.request.post('/api/mcp/servers', {
        data: { name: 's11meta', transport: 'http', url: named.url, allowPrivateNetwork: true },
        headers: h,
      })
    ).status(),
  ).toBe(201);
  expect((await page.request.get('/api/tools')).status()).toBe(200); // first use: the 401 and its challenge
  const meta = await page.request.post('/api/mcp/connections/s11meta/authorize', {
    data: { returnTo: '/' },
    headers: h,
  });
  expect(meta.status()).toBeLessThan(500);
  expect(await meta.text()).not.toContain('127.0.0.2');
  expect(named.seen.length, 'the server itself was asked').toBeGreaterThan(0);
  expect(sink.seen, 'nothing reached the private address').toEqual([]);
  await removeServer(page.request, 's11meta');
  await Promise.all([named.close(), sink.close()]);

  const cases: Array<[string, (origin: string) => Record<string, unknown> | null, RegExp | null]> = [
    ['s11js', (o) => asMetadata(o, 'javascript:alert(document.cookie)'), /cannot use javascript:/],
    ['s11file', (o) => asMetadata(o, 'file:///etc/passwd'), /not https/],
    ['s11shell', (o) => asMetadata(o, 'https://x.example/$(id)'), null],
  ];
  for (const [name, meta, refused] of cases) {
    const hostile = await hostileServer(meta);
    await removeServer(page.request, name);
    const created = await page.request.post('/api/mcp/servers', {
      data: { name, transport: 'http', url: hostile.url, allowPrivateNetwork: true },
      headers: h,
    });
    expect(created.status()).toBe(201);
    const res = await page.request.post(`/api/mcp/connections/${name}/authorize`, {
      data: { returnTo: '/' },
      headers: h,
    });
    const body = await res.text();
    if (refused) {
      expect(res.status(), `${name}: ${body}`).toBeGreaterThanOrEqual(400);
      expect(res.status()).toBeLessThan(600);
      expect(body).toMatch(refused);
      expect(body).not.toContain('"url"');
    } else {
      // A strange but https URL is handed over as it is, to be shown in full before anything opens; no shell ran it.
      expect(res.status(), body).toBe(200);
      expect(JSON.parse(body).url).toMatch(/^https:\/\/x\.example\/\$\(id\)\?/);
    }
    await removeServer(page.request, name);
    await hostile.close();
  }
});

const asMetadata = (origin: string, authorizationEndpoint: string) => ({
  issuer: origin,
  authorization_endpoint: authorizationEndpoint,
  token_endpoint: `${origin}/token`,
  registration_endpoint: `${origin}/register`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
});

test('S12 (OAuth part): the authorization request and the token exchange name the server the token is for (`resource`)', async ({
  page,
}) => {
  const { startOAuthMcpServer } = (await import(resolve('e2e/fixtures/oauth-mcp-server.mjs'))) as {
    startOAuthMcpServer: (o: object) => Promise<{ mcpUrl: string; close(): Promise<void> }>;
  };
  // The fixture refuses any authorization or token request whose `resource` is not its MCP URL.
  const fixture = await startOAuthMcpServer({});
  await removeServer(page.request, 's12oauth');
  const created = await page.request.post('/api/mcp/servers', {
    data: { name: 's12oauth', transport: 'http', url: fixture.mcpUrl, allowPrivateNetwork: true },
    headers: h,
  });
  expect(created.status()).toBe(201);
  const start = await page.request.post('/api/mcp/connections/s12oauth/authorize', {
    data: { returnTo: '/' },
    headers: h,
  });
  expect(start.status()).toBe(200);
  const authorize = new URL((await start.json()).url);
  expect(authorize.searchParams.get('resource')).toBe(fixture.mcpUrl);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  // The fixture approves at once: follow its redirect back to our callback, in this session.
  const back = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(back.headers.get('location') ?? '');
  expect(callback.pathname).toBe('/api/mcp/oauth/callback');
  const done = await page.request.get(`${callback.pathname}${callback.search}`, { maxRedirects: 0 });
  expect(done.status(), await done.text()).toBe(303);
  const state = (
    (await (await page.request.get('/api/mcp/connections')).json()).items as Array<{
      server: string;
      status: string;
    }>
  ).find((i) => i.server === 's12oauth');
  expect(state?.status).toBe('ready');
  await removeServer(page.request, 's12oauth');
  await fixture.close();
});
