import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { ADMIN, databaseAtRest, originHeaders, signIn } from './helpers';

/** The e2e app's data folder and database (playwright.config.ts). */
const DATA_DIR = 'data/e2e';
const DB = `${DATA_DIR}/app.db`;
const mode = (path: string) => statSync(path).mode & 0o777;
const h = originHeaders();

test('A10: MCP env and header values and a provider key created through the API are not on disk in clear; the data folder is 0700, the database 0600', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  const envCanary = `A10-ENV-${randomUUID()}`;
  const headerCanary = `A10-HEADER-${randomUUID()}`;
  const keyCanary = `sk-A10-${randomUUID()}`;
  const created: string[] = [];
  let providerId: string | undefined;
  try {
    for (const server of [
      {
        name: 'a10-stdio',
        transport: 'stdio',
        command: 'node',
        args: [resolve('e2e/fixtures/test-mcp-server.mjs'), 'stdio'],
        env: { TOKEN: envCanary },
        enabled: false,
      },
      {
        name: 'a10-http',
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: `Bearer ${headerCanary}` },
        enabled: false,
      },
    ]) {
      const res = await page.request.post('/api/mcp/servers', { data: server, headers: h });
      expect(res.status(), await res.text()).toBe(201);
      created.push(((await res.json()) as { id: string }).id);
    }
    const provider = await page.request.post('/api/admin/providers', {
      data: {
        name: 'A10 provider',
        baseURL: `${FAKE_MODEL_URL}/v1`,
        apiKey: keyCanary,
        models: ['fake-model'],
      },
      headers: h,
    });
    expect(provider.status(), await provider.text()).toBe(201);
    providerId = ((await provider.json()) as { id: string }).id;

    // The app still has them: the API answers masked values and a key that is set.
    const listed = JSON.stringify(await (await page.request.get('/api/mcp/servers')).json());
    expect(listed).toContain('a10-stdio');
    expect(listed).not.toContain(envCanary);
    const providers = (await (await page.request.get('/api/admin/providers')).json()).items as Array<{
      name: string;
      hasApiKey: boolean;
    }>;
    expect(providers.find((p) => p.name === 'A10 provider')?.hasApiKey).toBe(true);

    // What a copy of the disk would reveal: the database and its write-ahead log, byte for byte (the
    // SQLite file, or the Postgres cluster's files). The servers' names are there in clear: the scan reads them.
    const { kind, files } = await databaseAtRest();
    const onDisk = Buffer.concat(files.map((f) => readFileSync(f)));
    expect(onDisk.includes('a10-http'), `the scan reads the ${kind} database`).toBe(true);
    for (const canary of [envCanary, headerCanary, keyCanary])
      expect(onDisk.includes(canary), canary).toBe(false);

    expect(mode(DATA_DIR).toString(8)).toBe('700');
    if (kind === 'sqlite') {
      expect(existsSync(`${DB}-wal`)).toBe(true);
      expect(mode(DB).toString(8)).toBe('600');
      expect(mode(`${DB}-wal`).toString(8)).toBe('600');
    }
  } finally {
    for (const id of created) await page.request.delete(`/api/mcp/servers/${id}`, { headers: h });
    if (providerId) await page.request.delete(`/api/admin/providers/${providerId}`, { headers: h });
  }
});
