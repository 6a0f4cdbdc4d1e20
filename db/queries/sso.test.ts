import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '@/db/client';
import { getSsoProvider, saveSsoProvider } from '@/db/queries/sso';

const dir = mkdtempSync(join(tmpdir(), 'sso-version-'));
const handle = openDatabase(join(dir, 'app.db'), {
  key: randomBytes(32),
  legacyAppSecret: 'the-app-auth-secret-1234',
});
after(() => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = (name: string) => ({
  name,
  issuer: 'https://idp.example.com',
  clientId: 'client',
  clientSecret: 'secret',
  allowedDomains: ['example.com'],
});

test('two saves of the SSO form opened at the same version: exactly one is written', async () => {
  const db = handle.db;
  const first = await saveSsoProvider(db, config('Original'));
  assert.ok(first);
  const opened = new Date(first.updatedAt);
  const results = await Promise.all([
    saveSsoProvider(db, config('Alice'), opened),
    saveSsoProvider(db, config('Bob'), opened),
  ]);
  const winners = results.filter((r) => r !== null);
  assert.equal(winners.length, 1);
  const stored = await getSsoProvider(db);
  assert.equal(stored?.config?.name, winners[0]?.name);
  assert.ok(new Date(stored?.config?.updatedAt ?? 0).getTime() > opened.getTime());

  // A form still at the old version writes nothing; without a version (API clients) it writes as before.
  assert.equal(await saveSsoProvider(db, config('Stale'), opened), null);
  assert.equal((await getSsoProvider(db))?.config?.name, winners[0]?.name);
  assert.ok(await saveSsoProvider(db, config('API')));
  assert.equal((await getSsoProvider(db))?.config?.name, 'API');
});
