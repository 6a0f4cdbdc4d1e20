import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { type Db, openDatabase } from '@/db/client';
import {
  AUDIT_KEEP,
  type AuditEntry,
  countAudit,
  listAudit,
  REPEAT_WINDOW_MS,
  recordAudit,
} from '@/db/queries/audit';
import { auditLog } from '@/db/schema';

let dir: string;
let db: Db;
let handle: ReturnType<typeof openDatabase>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-'));
  handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
});
after(async () => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { userId: 'admin-1', email: 'admin@example.com' };
const BOB = { userId: 'bob-1', email: 'bob@example.com' };
const anonymous = (action: string, at?: Date) =>
  recordAudit(
    db,
    { userId: null, email: null, action, target: null, outcome: 'denied', detail: 'Sign in first.' },
    at,
  );
const rowsOf = (action: string) => db.select().from(auditLog).where(eq(auditLog.action, action)).all();

test('A5: 20,000+ anonymous failures leave every admin entry (and signed-in refusal) in place', async () => {
  const adminActions: string[] = [];
  const admin = async (i: number) => {
    const entry: AuditEntry = {
      ...ADMIN,
      action: 'mcp.server.create',
      target: `server-${i}`,
      outcome: 'ok',
      detail: null,
    };
    await recordAudit(db, entry);
    adminActions.push(entry.target ?? '');
  };
  for (let i = 0; i < 40; i++) await admin(i);
  await recordAudit(db, {
    ...BOB,
    action: 'POST /api/mcp/servers',
    target: null,
    outcome: 'denied',
    detail: 'Admins only.',
  });
  // Every request a different path, so nothing aggregates: the flood makes a row per request.
  const flood = AUDIT_KEEP.anonymous * 2 + 500;
  for (let i = 0; i < flood; i++) {
    await anonymous(`POST /api/mcp/servers/flood-${i}`);
    if (i % 2000 === 0) await admin(1000 + i);
  }
  const kept = db.select().from(auditLog).where(eq(auditLog.kind, 'admin')).all();
  assert.deepEqual(kept.map((e) => e.target).sort(), [...adminActions].sort());
  assert.equal(rowsOf('POST /api/mcp/servers').length, 1, "Bob's refused attempt is kept");
  // The anonymous pool was pruned among itself (at most one prune interval over its cap).
  const anon = await countAudit(db, 'anonymous');
  assert.ok(anon <= AUDIT_KEEP.anonymous + 500 && anon >= AUDIT_KEEP.anonymous, `anonymous rows: ${anon}`);
  // The newest of the flood survive, the oldest went.
  assert.equal(rowsOf(`POST /api/mcp/servers/flood-${flood - 1}`).length, 1);
  assert.equal(rowsOf('POST /api/mcp/servers/flood-0').length, 0);
  // And the list still shows the admins' actions next to the flood.
  const listed = (await listAudit(db)).filter((e) => e.kind === 'admin').map((e) => e.target);
  assert.ok(listed.includes('server-0') && listed.includes(`server-${1000 + 20_000}`));
});

test('A5: 1,000 identical anonymous failures within the window become one row with count 1000', async () => {
  const start = new Date('2030-01-01T00:00:00Z');
  for (let i = 0; i < 1000; i++)
    await anonymous('PATCH /api/admin/settings', new Date(start.getTime() + i * 50));
  const rows = rowsOf('PATCH /api/admin/settings');
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.count, 1000);
  assert.equal(rows[0]?.at.getTime(), start.getTime());
  assert.equal(rows[0]?.lastAt.getTime(), start.getTime() + 999 * 50);
  const item = (await listAudit(db, { kind: 'anonymous' })).find(
    (e) => e.action === 'PATCH /api/admin/settings',
  );
  assert.equal(item?.count, 1000);
  assert.equal(item?.lastAt, new Date(start.getTime() + 999 * 50).toISOString());
});

test('A5: different actions, actors, outcomes and a gap longer than the window stay separate rows', async () => {
  const t0 = new Date('2030-02-01T00:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  for (let i = 0; i < 10; i++) {
    await anonymous('GET /api/admin/users', at(i));
    await anonymous('GET /api/admin/providers', at(i));
    await recordAudit(
      db,
      { ...BOB, action: 'GET /api/admin/users', target: null, outcome: 'denied', detail: 'Admins only.' },
      at(i),
    );
    await recordAudit(
      db,
      { ...ADMIN, action: 'mcp.server.test', target: 'files', outcome: 'failed', detail: 'spawn ENOENT' },
      at(i),
    );
  }
  await anonymous('GET /api/admin/users', at(10 + REPEAT_WINDOW_MS + 1));
  const users = rowsOf('GET /api/admin/users');
  assert.deepEqual(
    users.map((e) => [e.kind, e.userId, e.count]).sort(),
    [
      ['anonymous', null, 1],
      ['anonymous', null, 10],
      ['refused', BOB.userId, 10],
    ].sort(),
  );
  assert.deepEqual(
    rowsOf('GET /api/admin/providers').map((e) => e.count),
    [10],
  );
  assert.deepEqual(
    rowsOf('mcp.server.test').map((e) => [e.kind, e.count]),
    [['admin', 10]],
  );
});

test('A5: successful admin actions are never merged, however close together', async () => {
  for (let i = 0; i < 3; i++)
    await recordAudit(db, { ...ADMIN, action: 'settings.update', target: null, outcome: 'ok', detail: '{}' });
  assert.deepEqual(
    rowsOf('settings.update').map((e) => [e.kind, e.count]),
    [
      ['admin', 1],
      ['admin', 1],
      ['admin', 1],
    ],
  );
});
