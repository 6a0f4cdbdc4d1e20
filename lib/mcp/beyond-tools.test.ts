import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AppError } from '@/lib/errors';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import {
  completeTemplateArgument,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  readResource,
} from '@/lib/mcp/context-requests';
import { MASK } from '@/lib/mcp/mask';
import { checkPromptRequest, promptRefusal } from '@/lib/mcp/prompt-errors';
import type { StdioConfig } from '@/lib/schemas/mcp';
import { expandUriTemplate } from '@/lib/uri-template';

// The test MCP server with its rich features (e2e/fixtures/rich/resources.mjs), as a real child process.
const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const LOG_SECRET = 'rich-log-secret-4711';
const config = (extra: Partial<StdioConfig> = {}): StdioConfig => ({
  name: 'rich',
  transport: 'stdio',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  enabled: true,
  timeoutMs: 10_000,
  command: process.execPath,
  args: [FIXTURE, 'stdio'],
  env: { TEST_MCP_RICH: '1', RICH_LOG_SECRET: LOG_SECRET },
  cwd: null,
  ...extra,
});
const connections: McpConnection[] = [];
const connect = (extra?: Partial<StdioConfig>) => {
  const conn = new McpConnection(config(extra), { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 });
  connections.push(conn);
  return conn;
};
after(() => Promise.all(connections.map((c) => c.close())));
const conn = connect();
const complete = (t: string, arg: string, value: string, context: Record<string, string>) =>
  conn.request(completeTemplateArgument(t, arg, value, context));
const subscribe = (c: McpConnection, uri: string) =>
  c.request((client, timeout) => c.watch.subscribe(client, uri, timeout));

test('templates are listed apart from resources; a variable completes with the others as context; the expanded URI reads', async () => {
  const resources = await conn.request(listResources);
  assert.ok(
    resources.every((r) => !r.uri.includes('{')),
    'no template poses as a resource',
  );
  const templates = await conn.request(listResourceTemplates);
  const note = templates.find((t) => t.uriTemplate === 'notes://{folder}/{name}');
  assert.ok(note, JSON.stringify(templates));
  assert.deepEqual(await complete(note.uriTemplate, 'folder', 'h', {}), ['home']);
  assert.deepEqual(await complete(note.uriTemplate, 'name', '', { folder: 'home' }), ['groceries', 'garden']);
  const uri = expandUriTemplate(note.uriTemplate, { folder: 'home', name: 'garden' });
  const read = await conn.request(readResource(uri));
  assert.equal(
    (read.contents[0] as { text: string }).text,
    'Note garden in folder home: remember the garden.',
  );
});

/** What renderPrompt does: check against the server's list, then map the server's refusal. */
async function renderPrompt(name: string, args: Record<string, string>) {
  const prompt = (await conn.request(listPrompts)).find((p) => p.name === name);
  checkPromptRequest('rich', prompt, name, args);
  return conn.request(getPrompt(name, args)).catch((err: unknown) => {
    throw promptRefusal(err, 'rich', prompt ?? { name }) ?? err;
  });
}

const refused =
  (code: AppError['code'], message: RegExp, fields?: Record<string, string>) => (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, message);
    if (fields) assert.deepEqual(err.fields, fields);
    return true;
  };

test('prompts: unknown → not_found; missing required or unknown argument → bad_request naming it; an invalid value → the server refuses, bad_request naming it', async () => {
  await assert.rejects(renderPrompt('nope', {}), refused('not_found', /no prompt "nope"/));
  await assert.rejects(
    renderPrompt('plan_trip', { days: '3' }),
    refused('bad_request', /missing required argument city/, { 'arguments.city': 'required' }),
  );
  await assert.rejects(
    renderPrompt('plan_trip', { city: 'Rome', weeks: '2' }),
    refused('bad_request', /unknown argument weeks/, { 'arguments.weeks': 'not an argument of this prompt' }),
  );
  await assert.rejects(
    renderPrompt('plan_trip', { city: 'Rome', days: 'many' }),
    refused('bad_request', /refused prompt "plan_trip" \(argument days\): .*days must be a number/, {
      'arguments.days': 'invalid',
    }),
  );
  const ok = await renderPrompt('plan_trip', { city: 'Rome', days: '3' });
  assert.deepEqual(ok.messages[0]?.content, { type: 'text', text: 'Plan 3 days in Rome' });
});

test("a server's own refusal maps without the host's list: a prompt it no longer has is not_found", async () => {
  const err = await conn.request(getPrompt('vanished', {})).catch((e: unknown) => e);
  assert.ok(refused('not_found', /no prompt "vanished"/)(promptRefusal(err, 'rich', { name: 'vanished' })));
  assert.equal(promptRefusal(new Error('socket hang up'), 'rich', { name: 'x' }), undefined);
});

async function burst(c: McpConnection) {
  const before = c.logs.list().length;
  await c.callTool('log_burst', {});
  // Notifications sent before the result arrive before it (one ordered stream).
  return c.logs.list().slice(before);
}

test('log messages are kept with level, logger and masked text; logLevel is sent on connect and the server filters', async () => {
  const all = await burst(conn);
  assert.deepEqual(
    all.map((m) => m.level),
    ['debug', 'info', 'warning', 'error'],
  );
  assert.equal(all[0]?.logger, 'burst');
  assert.match(all[0]?.text ?? '', /"message":"burst debug #\d+"/);
  assert.ok(all.every((m) => m.text.includes(MASK) && !m.text.includes(LOG_SECRET)));

  const quiet = connect({ name: 'rich-quiet', logLevel: 'warning' });
  const filtered = await burst(quiet);
  assert.deepEqual(
    filtered.map((m) => m.level),
    ['warning', 'error'],
  );
});

test('a subscribed resource is marked changed when the server says so, and when a new session renews the subscription', async () => {
  const watcher = connect({ name: 'rich-watch' });
  assert.equal(await subscribe(watcher, 'counter://value'), true);
  // Staleness is per reader (a conversation holding the resource): first seen, it holds the current copy.
  const stale = (uri: string) => watcher.watch.isStale(uri, 'conv-1');
  const read = (uri: string) => watcher.watch.read(uri, 'conv-1', watcher.watch.version(uri));
  assert.equal(stale('counter://value'), false);
  await watcher.callTool('bump_counter', {});
  // The notification is sent before the tool's result, on the same ordered stream.
  assert.equal(stale('counter://value'), true);
  read('counter://value');
  assert.equal(stale('counter://value'), false);
  // Not subscribed: a notification for another URI marks nothing.
  watcher.watch.updated('notes://work/plan');
  assert.equal(stale('notes://work/plan'), false);
  // A new session (what open() does after a reconnect): subscribed again, and counted as changed.
  await watcher.watch.renew(await watcher.getClient(), 5_000);
  assert.equal(stale('counter://value'), true);
  read('counter://value');
  await watcher.callTool('bump_counter', {});
  assert.equal(stale('counter://value'), true);

  // A server without resources/subscribe: nothing is watched.
  const plain = new McpConnection(
    { ...config({ name: 'plain' }), env: {} },
    { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 },
  );
  connections.push(plain);
  assert.equal(await subscribe(plain, 'test://docs/readme'), false);
});
