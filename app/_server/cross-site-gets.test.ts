// GETs that start the user's MCP connections (a stdio child per user, a sign-in) answer only the app's
// own pages and the address bar. Another site could otherwise have a signed-in person's browser open
// /api/tools in a link or a frame (a top-level navigation carries the SameSite=Lax session cookie) and
// start their servers, again and again. The browser names the request's site in Sec-Fetch-Site.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { appRequest, signUp } from '@/app/_server/test-auth';

const dir = mkdtempSync(join(tmpdir(), 'cross-site-gets-'));
const APP = 'http://127.0.0.1:3987';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { getPool } = await import('@/lib/mcp/pool');
const { McpServerConfigSchema } = await import('@/lib/schemas/mcp');
const routes = {
  '/api/tools': await import('@/app/api/tools/route'),
  '/api/prompts': await import('@/app/api/prompts/route'),
  '/api/resources': await import('@/app/api/resources/route'),
  '/api/mcp-apps/resource?server=notes&uri=ui%3A%2F%2Fx': await import('@/app/api/mcp-apps/resource/route'),
};

/** The per-user stdio server leaves this file behind when it is started (then exits: no handshake). */
const started = join(dir, 'started');
let cookie = '';
before(async () => {
  cookie = await signUp(APP, 'Ada', 'ada@example.com');
  getPool().sync([
    McpServerConfigSchema.parse({
      name: 'notes',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(started)}, '')`],
      scope: 'user',
    }),
  ]);
});
after(async () => {
  getPool().sync([]);
  await getPool().closeAll();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, site?: string) => {
  const req = appRequest(APP, cookie, 'GET', path);
  req.headers.delete('origin');
  if (site) req.headers.set('sec-fetch-site', site);
  return req;
};

test('a cross-site or same-site request to a GET that starts connections is refused and starts nothing', async () => {
  for (const [path, route] of Object.entries(routes))
    for (const site of ['cross-site', 'same-site']) {
      const res = await route.GET(get(path, site), undefined as never);
      assert.equal(res.status, 403, `${path} from ${site}`);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /Cross-site/);
    }
  assert.equal(existsSync(started), false, 'no server was started');
});

test("the app's own page, the address bar and clients without the header are answered", async () => {
  for (const site of ['same-origin', 'none', undefined]) {
    const res = await routes['/api/tools'].GET(get('/api/tools', site), undefined as never);
    assert.equal(res.status, 200, `from ${site ?? 'a client without Sec-Fetch-Site'}`);
  }
  assert.equal(existsSync(started), true, 'the server was started for the catalog');
});
