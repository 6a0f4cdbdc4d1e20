// The routes named by an MCP server (or tool) take the name as Next.js hands it over: already decoded.
// Decoding it again made a name holding "%" (a request for /api/mcp/connections/%25) a 500.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'server-param-'));
const APP = 'http://127.0.0.1:3994';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { handleAuthRequest } = await import('@/app/_server/auth-gate');
const connection = await import('@/app/api/mcp/connections/[server]/route');
const authorize = await import('@/app/api/mcp/connections/[server]/authorize/route');
const values = await import('@/app/api/mcp/connections/[server]/values/route');
const tool = await import('@/app/api/mcp/servers/[id]/tools/[tool]/route');

let cookie = '';
before(async () => {
  const res = await handleAuthRequest(
    new Request(`${APP}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', password: 'admin-password-1' }),
    }),
  );
  assert.equal(res.status, 200);
  cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const call = (method: string, path: string, body?: unknown) =>
  new Request(`${APP}${path}`, {
    method,
    headers: { origin: APP, cookie, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
/** Next.js's params for a path segment `%25`: the decoded name. */
const named = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

test('a server name holding "%" is an unknown server (404), never a 500', async () => {
  for (const server of ['%', 'a%', '%zz']) {
    const answers = [
      await connection.DELETE(call('DELETE', '/api/mcp/connections/x'), named({ server })),
      await authorize.POST(call('POST', '/api/mcp/connections/x/authorize'), named({ server })),
      await values.PUT(call('PUT', '/api/mcp/connections/x/values', { values: {} }), named({ server })),
    ];
    for (const res of answers) assert.equal(res.status, 404, `${server}: ${await res.text()}`);
  }
});

test('a tool name holding "%" reaches the tool lookup (an unknown server is a 404), never a 500', async () => {
  const res = await tool.PATCH(
    call('PATCH', '/api/mcp/servers/x/tools/x', { enabled: false }),
    named({ id: 'no-such-server', tool: '50%' }),
  );
  assert.equal(res.status, 404, await res.text());
});
