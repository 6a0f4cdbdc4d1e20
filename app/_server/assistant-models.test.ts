// A shared assistant may name a model limited to others (an admin made it with an admin-only model).
// To a user outside that model's access list the model does not exist: GET /api/assistants must not
// name it (the servers of such an assistant were already reduced to the viewer's own; its model was not).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { appRequest, signUp } from '@/app/_server/test-auth';

const dir = mkdtempSync(join(tmpdir(), 'assistants-models-'));
const APP = 'http://127.0.0.1:3986';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { getDb } = await import('@/db/client');
const { updateSettings } = await import('@/db/queries/settings');
const providersRoute = await import('@/app/api/admin/providers/route');
const assistantsRoute = await import('@/app/api/assistants/route');

const call = (cookie: string, method: string, path: string, body?: unknown) =>
  appRequest(APP, cookie, method, path, body);

let admin = '';
let user = '';
before(async () => {
  admin = await signUp(APP, 'Ada', 'ada@example.com');
  await updateSettings(getDb(), { signupOpen: true });
  user = await signUp(APP, 'Bo', 'bo@example.com');
  const made = await providersRoute.POST(
    call(admin, 'POST', '/api/admin/providers', {
      name: 'lab',
      baseURL: 'http://127.0.0.1:9/v1',
      models: ['open', 'secret'],
      modelAllow: { secret: ['admin'] },
    }),
    undefined,
  );
  assert.equal(made.status, 201, await made.text());
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Item = { name: string; model: string | null };
const list = async (cookie: string): Promise<Item[]> => {
  const res = await assistantsRoute.GET(call(cookie, 'GET', '/api/assistants'), undefined);
  assert.equal(res.status, 200);
  return ((await res.json()) as { items: Item[] }).items;
};

test('a shared assistant does not name a model the viewer may not use; the admin still sees it', async () => {
  for (const [name, model] of [
    ['Secretive', 'lab/secret'],
    ['Open', 'lab/open'],
  ]) {
    const res = await assistantsRoute.POST(
      call(admin, 'POST', '/api/assistants', { name, instructions: 'x', model, shared: true }),
      undefined,
    );
    assert.equal(res.status, 201, await res.text());
  }
  const seen = Object.fromEntries((await list(user)).map((a) => [a.name, a.model]));
  assert.deepEqual(seen, { Secretive: null, Open: 'lab/open' });
  const own = Object.fromEntries((await list(admin)).map((a) => [a.name, a.model]));
  assert.deepEqual(own, { Secretive: 'lab/secret', Open: 'lab/open' });
});
