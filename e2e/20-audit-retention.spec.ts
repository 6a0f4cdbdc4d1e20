import { type APIRequestContext, expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { ADMIN, originHeaders, signIn } from './helpers';

type AuditItem = {
  action: string;
  target: string | null;
  outcome: string;
  email: string | null;
  kind: string;
  count: number;
  at: string;
  lastAt: string;
};

const auditItems = async (request: APIRequestContext, query = ''): Promise<AuditItem[]> => {
  const res = await request.get(`/api/admin/audit${query}`);
  expect(res.status()).toBe(200);
  return (await res.json()).items as AuditItem[];
};

/** `count` anonymous POSTs, 20 at a time; every one is refused with 401. */
async function flood(anon: APIRequestContext, count: number, path: (i: number) => string): Promise<void> {
  for (let start = 0; start < count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start) }, (_, k) =>
      anon.post(path(start + k), { headers: originHeaders() }),
    );
    for (const res of await Promise.all(batch)) expect(res.status()).toBe(401);
  }
}

test('A5: anonymous floods are aggregated and never push an admin action out of the audit log', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const run = Math.random().toString(36).slice(2, 10);
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  // The admin's own action first: a provider created (and removed again, so later specs see none).
  const name = `audit-mark-${run}`;
  const created = await admin.request.post('/api/admin/providers', {
    data: { name, baseURL: 'http://127.0.0.1:9/v1', models: [] },
    headers: originHeaders(),
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect(
    (await admin.request.delete(`/api/admin/providers/${id}`, { headers: originHeaders() })).status(),
  ).toBe(204);

  // 300 identical anonymous attempts (a path unique to this run, so no earlier spec's entry joins them).
  const anon = await playwright.request.newContext({ baseURL: APP_URL });
  const target = `/api/mcp/servers/flood-${run}/test`;
  await flood(anon, 300, () => target);

  let items = await auditItems(admin.request);
  const repeated = items.filter((e) => e.action === `POST ${target}`);
  expect(repeated).toHaveLength(1);
  expect(repeated[0]).toMatchObject({ email: null, outcome: 'denied', kind: 'anonymous', count: 300 });
  expect(Date.parse(repeated[0]?.lastAt ?? '')).toBeGreaterThanOrEqual(Date.parse(repeated[0]?.at ?? ''));
  const mine = (list: AuditItem[]) => list.filter((e) => e.action === 'provider.create' && e.target === name);
  expect(mine(items)).toEqual([
    expect.objectContaining({ email: ADMIN.email, outcome: 'ok', kind: 'admin', count: 1 }),
  ]);

  // The audit page shows the merged row with its count, and the admin's action.
  const page = await admin.newPage();
  await page.goto('/admin/audit');
  const floodRow = page.locator('tr', { hasText: `POST ${target}` });
  await expect(floodRow).toHaveCount(1);
  await expect(floodRow).toContainText('×300');
  await expect(floodRow).toContainText('last');
  await expect(page.locator('tr[data-audit-kind="admin"]', { hasText: name })).toHaveCount(1);

  // 300 more with a different path each (nothing to merge): the admin's action is still listed.
  await flood(anon, 300, (i) => `/api/mcp/servers/flood-${run}-${i}/test`);
  items = await auditItems(admin.request);
  expect(
    items.filter((e) => e.action.startsWith(`POST /api/mcp/servers/flood-${run}-`)).length,
  ).toBeGreaterThanOrEqual(200);
  expect(mine(items)).toHaveLength(1);
  expect(mine(await auditItems(admin.request, '?kind=admin'))).toHaveLength(1);

  await page.reload();
  await expect(page.locator('tr[data-audit-kind="admin"]', { hasText: name })).toHaveCount(1);
  await Promise.all([anon.dispose(), admin.close()]);
});
