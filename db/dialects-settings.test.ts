/**
 * The admin settings and SSO forms' versions (If-Match): two saves from forms opened at one version, at
 * once, and exactly one is written; a stale form writes nothing; without a version (API clients) a save
 * writes as before. Runs on SQLite, then again on a real Postgres (db/dialect-harness.ts), where the two
 * saves run on two connections at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { dialect, dialectHarness } from '@/db/dialect-harness';
import {
  claimFirstAdmin,
  FIRST_ADMIN_CLAIM_MS,
  getSettings,
  getSettingsVersioned,
  updateSettings,
} from '@/db/queries/settings';
import {
  deleteSsoProvider,
  getSsoProvider,
  getSsoProviderPublic,
  SSO_PROVIDER_KEY,
  saveSsoProvider,
} from '@/db/queries/sso';

let db: Db;
const { rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
});

test(`${dialect}: two saves of the settings form opened at one version: exactly one is written`, async () => {
  await updateSettings(db, { maxSteps: 3 });
  const opened = new Date((await getSettingsVersioned(db)).updatedAt);
  const results = await Promise.all([
    updateSettings(db, { maxSteps: 11, maxToolCalls: 21 }, opened),
    updateSettings(db, { maxSteps: 12, maxToolCalls: 22 }, opened),
  ]);
  const winners = results.filter((r) => r !== null);
  assert.equal(winners.length, 1);
  const stored = await getSettingsVersioned(db);
  assert.deepEqual([stored.maxSteps, stored.maxToolCalls], [winners[0]?.maxSteps, winners[0]?.maxToolCalls]);
  assert.ok(new Date(stored.updatedAt).getTime() > opened.getTime());

  // A form still at the old version writes nothing, even a key the winner did not name.
  assert.equal(await updateSettings(db, { maxConcurrentTurns: 99 }, opened), null);
  assert.notEqual((await getSettings(db)).maxConcurrentTurns, 99);
  // At the current version it writes; without a version (API clients) it writes as before.
  assert.ok(await updateSettings(db, { maxConcurrentTurns: 9 }, new Date(stored.updatedAt)));
  assert.ok(await updateSettings(db, { maxConcurrentTurns: 8 }));
  assert.equal((await getSettings(db)).maxConcurrentTurns, 8);
  // The internal flag and the SSO provider are not the settings form's: they leave its version as is.
  const before = (await getSettingsVersioned(db)).updatedAt;
  await updateSettings(db, { builtinsSeeded: true });
  await saveSsoProvider(db, config('Elsewhere'));
  assert.equal((await getSettingsVersioned(db)).updatedAt, before);
});

const config = (name: string) => ({
  name,
  issuer: 'https://idp.example.com',
  clientId: 'client',
  clientSecret: 'the-client-secret',
  allowedDomains: ['example.com'],
});

test(`${dialect}: two saves of the SSO form opened at one version: exactly one is written`, async () => {
  const first = await saveSsoProvider(db, config('Original'));
  assert.ok(first);
  const opened = new Date(first.updatedAt);
  assert.equal((await getSsoProviderPublic(db))?.updatedAt, first.updatedAt);
  const results = await Promise.all([
    saveSsoProvider(db, config('Alice'), opened),
    saveSsoProvider(db, config('Bob'), opened),
  ]);
  const winners = results.filter((r) => r !== null);
  assert.equal(winners.length, 1);
  const stored = await getSsoProvider(db);
  assert.equal(stored?.config?.name, winners[0]?.name);
  assert.equal(stored?.config?.clientSecret, 'the-client-secret');
  assert.ok(new Date(stored?.config?.updatedAt ?? 0).getTime() > opened.getTime());

  // A form still at the old version writes nothing; without a version (API clients) it writes as before.
  assert.equal(await saveSsoProvider(db, config('Stale'), opened), null);
  assert.equal((await getSsoProvider(db))?.config?.name, winners[0]?.name);
  assert.ok(await saveSsoProvider(db, config('API')));
  assert.equal((await getSsoProvider(db))?.config?.name, 'API');
  assert.equal(JSON.stringify(await getSsoProviderPublic(db)).includes('the-client-secret'), false);
});

test(`${dialect}: password sign-in going off and the provider removed or changed at once: never both`, async () => {
  for (const change of ['removed', 'changed'] as const) {
    await updateSettings(db, { passwordSignIn: true });
    const checked = await saveSsoProvider(db, config('Checked'));
    assert.ok(checked);
    // The switch checked this version of the provider; another admin acts on the provider at that moment.
    const off = updateSettings(db, { passwordSignIn: false }, null, {
      key: SSO_PROVIDER_KEY,
      updatedAt: checked.updatedAt,
    });
    const other =
      change === 'removed'
        ? deleteSsoProvider(db)
        : saveSsoProvider(db, config('No admin linked'), null, { whilePasswordSignIn: true });
    const [switched, acted] = await Promise.all([off, other]);
    const wentOff = switched !== null && switched !== 'row-changed';
    const providerActed = acted !== false && acted !== null && acted !== 'password-off';
    assert.equal(Number(wentOff) + Number(providerActed), 1, `${change}: exactly one of the two is written`);
    assert.equal((await getSettings(db)).passwordSignIn, !wentOff);
  }
  await updateSettings(db, { passwordSignIn: true });
});

test(`${dialect}: first sign-ups at once on a fresh install: exactly one claims the admin role`, async () => {
  const at = new Date();
  const claims = await Promise.all([1, 2, 3].map(() => claimFirstAdmin(db, at)));
  assert.equal(claims.filter(Boolean).length, 1);
  // Within the minute another still finds the claim; after it (the first sign-up failed), one may claim.
  assert.equal(await claimFirstAdmin(db, new Date(at.getTime() + FIRST_ADMIN_CLAIM_MS - 1)), false);
  const later = new Date(at.getTime() + FIRST_ADMIN_CLAIM_MS);
  assert.deepEqual(
    await Promise.all([claimFirstAdmin(db, later), claimFirstAdmin(db, later)]).then((r) => r.sort()),
    [false, true],
  );
  // The claim is no setting: the settings and their version do not show it.
  assert.equal('firstAdminClaim' in (await getSettingsVersioned(db)), false);
});

rerunOnPostgres();
