import assert from 'node:assert/strict';
import { createCipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '@/db/client';
import {
  createMcpServer,
  getMcpServerByName,
  listMcpServers,
  updateMcpServer,
  upsertMcpServers,
} from '@/db/queries/mcp-servers';
import { createProvider, getProvider, listProviders, updateProvider } from '@/db/queries/providers';
import { type McpServerConfig, McpServerConfigSchema } from '@/lib/schemas/mcp';

const dir = mkdtempSync(join(tmpdir(), 'stored-secrets-'));
const path = join(dir, 'app.db');
const KEY = randomBytes(32);
const AUTH_SECRET = 'the-app-auth-secret-1234';
const open = (key = KEY) => openDatabase(path, { key, legacyAppSecret: AUTH_SECRET });
let handle = open();
after(async () => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const ENV_CANARY = `env-canary-${randomUUID()}`;
const HEADER_CANARY = `header-canary-${randomUUID()}`;
const KEY_CANARY = `sk-canary-${randomUUID()}`;
const LEGACY_ENV = `legacy-env-${randomUUID()}`;
const LEGACY_KEY = `sk-legacy-${randomUUID()}`;

// Parsed, as every config the app stores is.
const stdio = (name: string, env: Record<string, string>): McpServerConfig =>
  McpServerConfigSchema.parse({ name, transport: 'stdio', command: 'node', env });
const http = (name: string, headers: Record<string, string>): McpServerConfig =>
  McpServerConfigSchema.parse({ name, transport: 'http', url: 'https://mcp.example.com/mcp', headers });

/** A server's env or header values, read through the query module. */
async function secretsOf(name: string): Promise<Record<string, string>> {
  const config = (await getMcpServerByName(handle.db, name))?.config;
  assert.ok(config && config.transport !== 'builtin', name);
  return config.transport === 'stdio' ? config.env : config.headers;
}

/** Every stored secret, as SQLite holds it. */
const rawRows = () =>
  JSON.stringify([
    handle.sqlite.prepare('select * from mcp_servers').all(),
    handle.sqlite.prepare('select * from providers').all(),
  ]);

/** The v1 format as the app wrote provider keys before ENCRYPTION_KEY (a key derived from AUTH_SECRET). */
function sealV1(plain: string, appSecret: string): string {
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'mcp-chat-host', 'provider-api-keys', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

test('A10: env and header values and provider keys are sealed in the rows and read back plain through the queries', async () => {
  const { db } = handle;
  await createMcpServer(db, stdio('local', { TOKEN: ENV_CANARY }));
  const remote = await createMcpServer(db, http('remote', { Authorization: `Bearer ${HEADER_CANARY}` }));
  assert.ok(remote);
  await updateMcpServer(
    db,
    remote.id,
    http('remote', { Authorization: `Bearer ${HEADER_CANARY}`, 'X-Extra': HEADER_CANARY }),
    remote.updatedAt,
  );
  await upsertMcpServers(db, [stdio('upserted', { TOKEN: ENV_CANARY })]);
  const provider = await createProvider(db, {
    name: 'p',
    baseURL: 'https://llm.example.com/v1',
    apiKey: KEY_CANARY,
    models: ['m'],
    toolCalling: 'native',
  });
  assert.ok(provider);

  const raw = rawRows();
  for (const canary of [ENV_CANARY, HEADER_CANARY, KEY_CANARY])
    assert.ok(!raw.includes(canary), `${canary} is not in the raw rows`);
  assert.match(raw, /"TOKEN\\":\\"v2\./);

  assert.deepEqual(await secretsOf('local'), { TOKEN: ENV_CANARY });
  assert.deepEqual(await secretsOf('remote'), {
    Authorization: `Bearer ${HEADER_CANARY}`,
    'X-Extra': HEADER_CANARY,
  });
  assert.deepEqual(await secretsOf('upserted'), { TOKEN: ENV_CANARY });
  assert.deepEqual(
    (await upsertMcpServers(db, [stdio('upserted', { TOKEN: ENV_CANARY })])).unchanged,
    ['upserted'],
    'fresh IVs do not make a server look changed',
  );
  assert.equal((await getProvider(db, provider.id))?.apiKey, KEY_CANARY);
  assert.equal(
    (await updateProvider(db, provider.id, { baseURL: 'https://llm2.example.com/v1' }, provider.updatedAt))
      ?.apiKey,
    KEY_CANARY,
    'an update without a key keeps it',
  );
});

test('A10: a legacy plaintext server row and a v1 provider key are sealed when the database opens, once, and still read back', async () => {
  const legacyConfig = { ...stdio('legacy', { TOKEN: LEGACY_ENV }) };
  handle.sqlite
    .prepare('insert into mcp_servers (id, name, config) values (?, ?, ?)')
    .run('legacy-id', 'legacy', JSON.stringify(legacyConfig));
  const v1 = sealV1(LEGACY_KEY, AUTH_SECRET);
  handle.sqlite
    .prepare('insert into providers (id, name, base_url, api_key_encrypted) values (?, ?, ?, ?)')
    .run('old-id', 'old', 'https://old.example.com/v1', v1);
  assert.ok(rawRows().includes(LEGACY_ENV));

  handle.sqlite.close();
  handle = open();
  const migrated = rawRows();
  assert.ok(!migrated.includes(LEGACY_ENV), 'the plaintext env value is sealed');
  assert.ok(!migrated.includes(v1), 'the v1 key is resealed');
  const resealed = handle.sqlite
    .prepare("select api_key_encrypted as k from providers where id = 'old-id'")
    .get() as { k: string };
  assert.match(resealed.k, /^v2\./);
  assert.deepEqual(await secretsOf('legacy'), { TOKEN: LEGACY_ENV });
  assert.equal((await getProvider(handle.db, 'old-id'))?.apiKey, LEGACY_KEY);

  handle.sqlite.close();
  handle = open();
  assert.equal(rawRows(), migrated, 'opening again changes nothing');
});

test('A10: under another ENCRYPTION_KEY sealed values are unreadable, never garbage: named, logged once, left as stored', async (t) => {
  const before = rawRows();
  const errors = t.mock.method(console, 'error', () => {});
  handle.sqlite.close();
  handle = open(randomBytes(32));
  assert.equal(rawRows(), before, 'nothing is sealed a second time');

  const local = await getMcpServerByName(handle.db, 'local');
  assert.ok(local?.config.transport === 'stdio');
  assert.deepEqual(local.unreadable, ['env.TOKEN']);
  assert.deepEqual(local.config.env, {}, 'no undecryptable value reaches the config');
  assert.deepEqual((await getMcpServerByName(handle.db, 'remote'))?.unreadable, [
    'headers.Authorization',
    'headers.X-Extra',
  ]);
  await listMcpServers(handle.db);
  await listMcpServers(handle.db);
  const provider = (await listProviders(handle.db)).find((p) => p.name === 'p');
  assert.equal(provider?.apiKey, null);
  assert.equal(provider?.apiKeyUnreadable, true);

  const logged = errors.mock.calls.map((c) => String(c.arguments[0]));
  assert.equal(logged.filter((m) => m.includes('MCP server "local"')).length, 1, 'logged once');
  assert.match(
    logged.find((m) => m.includes('MCP server "local"')) ?? '',
    /env\.TOKEN cannot be decrypted with this ENCRYPTION_KEY/,
  );
  assert.ok(logged.some((m) => m.includes('provider "p"')));
  for (const canary of [ENV_CANARY, HEADER_CANARY, KEY_CANARY])
    assert.ok(!logged.join('\n').includes(canary));
});
