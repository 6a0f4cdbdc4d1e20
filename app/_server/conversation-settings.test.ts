import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { settingsOf, type SyncAnswer, ToolSettingsSync } from '@/app/(chat)/_components/tool-settings-sync';
import { patchConversation } from '@/app/_server/conversation-settings';
import type { SessionUser } from '@/app/_server/session';
import { getDb } from '@/db/client';
import { getOwnConversation } from '@/db/queries/conversations';
import { conversations, user } from '@/db/tables';
import { AppError } from '@/lib/errors';
import { parseWith } from '@/lib/http';
import { getPool } from '@/lib/mcp/pool';
import { resetProcessState } from '@/lib/process-state';
import type { ToolToggle } from '@/lib/schemas/chat';
import { ConversationPatchSchema } from '@/lib/schemas/conversations';
import type { ToolChange } from '@/lib/tool-toggles';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

// One conversation's tool settings changed from two tabs at once, through what the Tools menu sends
// (tool-settings-sync) and the PATCH route's handler, against a real migrated SQLite file (no HTTP).

const dir = mkdtempSync(join(tmpdir(), 'conversation-settings-'));
const saved = { ...process.env };
const alice: SessionUser = { id: 'alice', name: 'Alice', email: 'alice@example.com', role: 'user' };
const bob: SessionUser = { id: 'bob', name: 'Bob', email: 'bob@example.com', role: 'user' };
const SERVERS = ['alpha', 'beta'];

before(async () => {
  resetProcessState();
  process.env.DATABASE_PATH = join(dir, 'app.db');
  for (const u of [alice, bob])
    await getDb()
      .insert(user)
      .values({ ...u });
  // Per-user servers: nothing connects until someone uses one.
  getPool().sync(
    SERVERS.map((name) =>
      McpServerConfigSchema.parse({ name, transport: 'stdio', command: 'true', scope: 'user', allow: ['*'] }),
    ),
  );
});
after(() => {
  getPool().sync([]);
  resetProcessState();
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

async function newConversation(id: string) {
  const now = new Date();
  await getDb()
    .insert(conversations)
    .values({ id, userId: alice.id, title: id, createdAt: now, updatedAt: now });
}

/** PATCH /api/conversations/[id] as the route runs it: the JSON body validated, then applied. */
async function patch(id: string, body: unknown): Promise<SyncAnswer> {
  try {
    const parsed = parseWith(ConversationPatchSchema, JSON.parse(JSON.stringify(body)), 'request body');
    return { ok: true, settings: settingsOf(await patchConversation(alice, id, parsed)) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: err.message };
    throw err;
  }
}

const stored = async (id: string) => {
  const row = await getOwnConversation(getDb(), alice.id, id);
  return { servers: row?.toolServers, disabledTools: [...(row?.disabledTools ?? [])].sort() };
};

/**
 * Tabs of one conversation, each opened with the settings stored then. `together` holds each save until
 * that many are under way, so the tabs' saves run at once (neither saw the other's change).
 */
async function openTabs(id: string, count: number, together = count) {
  const initial = settingsOf(await patch(id, {}).then((a) => (a.ok ? a.settings : {})));
  const waiting: Array<() => void> = [];
  const go = () => {
    together = 1; // once the first ones go, later saves go at once
    for (const resolve of waiting.splice(0)) resolve();
  };
  const gate = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length >= together) go();
    });
  const failures: Array<string | null> = [];
  const sent: ToolChange[] = [];
  const tabs = Array.from(
    { length: count },
    () =>
      new ToolSettingsSync(initial, {
        saved: () => true,
        transport: {
          save: async (change) => {
            sent.push(change);
            await gate();
            return patch(id, change);
          },
          read: () => patch(id, {}),
        },
        onUpdate: (_settings, failure) => failures.push(failure?.reason ?? null),
      }),
  );
  return { tabs, failures, sent, release: go };
}

const toggle = (t: ToolToggle) => ({ toggles: [t] });

test('two tabs switch off different tools at once: both are stored, and both tabs end showing both', async () => {
  await newConversation('two-tabs');
  const { tabs } = await openTabs('two-tabs', 2);
  const [a, b] = tabs as [ToolSettingsSync, ToolSettingsSync];
  a.change(toggle({ server: 'alpha', tool: 'x', on: false }), SERVERS);
  b.change(toggle({ server: 'alpha', tool: 'y', on: false }), SERVERS);
  // Before an answer each tab shows its own switch.
  assert.deepEqual(a.settings.disabledTools, ['alpha/x']);
  assert.deepEqual(b.settings.disabledTools, ['alpha/y']);
  await Promise.all([a.idle(), b.idle()]);
  assert.deepEqual(await stored('two-tabs'), { servers: null, disabledTools: ['alpha/x', 'alpha/y'] });
  // The tab answered second shows both; the other once it reads again (its Tools menu opening).
  const sorted = (t: ToolSettingsSync) => [...(t.settings.disabledTools ?? [])].sort();
  assert.ok([a, b].some((t) => sorted(t).length === 2));
  a.refresh();
  b.refresh();
  await Promise.all([a.idle(), b.idle()]);
  assert.deepEqual(sorted(a), ['alpha/x', 'alpha/y']);
  assert.deepEqual(sorted(b), ['alpha/x', 'alpha/y']);
});

test('a server switched off in one tab while another switches a tool: both kept', async () => {
  await newConversation('server-and-tool');
  const { tabs } = await openTabs('server-and-tool', 2);
  const [a, b] = tabs as [ToolSettingsSync, ToolSettingsSync];
  a.change(toggle({ server: 'beta', on: false }), SERVERS);
  b.change(toggle({ server: 'alpha', tool: 'x', on: false }), SERVERS);
  await Promise.all([a.idle(), b.idle()]);
  assert.deepEqual(await stored('server-and-tool'), { servers: ['alpha'], disabledTools: ['alpha/x'] });
  // Switched on again from the tab that never saw it off: the list collapses back to every server.
  b.change(toggle({ server: 'beta', on: true }), SERVERS);
  await b.idle();
  assert.deepEqual(await stored('server-and-tool'), { servers: null, disabledTools: ['alpha/x'] });
  assert.equal(b.settings.servers, null);
});

test('switches made while a save runs go together after it; a refused save shows the stored settings and why', async () => {
  await newConversation('queued');
  const { tabs, failures, sent, release } = await openTabs('queued', 1, 2);
  const [tab] = tabs as [ToolSettingsSync];
  tab.change(toggle({ server: 'alpha', tool: 'x', on: false }), SERVERS);
  // The first save waits at the gate; these wait for it and go as one request.
  tab.change(toggle({ server: 'alpha', tool: 'y', on: false }), SERVERS);
  tab.change(toggle({ server: 'alpha', tool: 'x', on: true }), SERVERS);
  assert.deepEqual(tab.settings.disabledTools, ['alpha/y']);
  release();
  await tab.idle();
  assert.deepEqual(sent.slice(1), [
    {
      toggles: [
        { server: 'alpha', tool: 'y', on: false },
        { server: 'alpha', tool: 'x', on: true },
      ],
    },
  ]);
  assert.deepEqual(await stored('queued'), { servers: null, disabledTools: ['alpha/y'] });
  assert.deepEqual(tab.settings.disabledTools, ['alpha/y']);
  // Above the admin's limit: refused, and the tab does not keep showing it.
  tab.change({ maxSteps: 1000, toggles: [{ server: 'alpha', tool: 'z', on: false }] }, SERVERS);
  await tab.idle();
  assert.match(failures.at(-1) ?? '', /maxSteps/);
  assert.equal(tab.settings.maxSteps, null);
  assert.deepEqual(tab.settings.disabledTools, ['alpha/y']);
});

test('toggles are validated: not with the lists they change, bounded, only on your own conversation', async () => {
  await newConversation('checked');
  const refused = await patch('checked', { toggles: [{ server: 'alpha', on: false }], disabledTools: [] });
  assert.equal(refused.ok, false);
  for (const bad of [
    [],
    [{ server: '', on: true }],
    [{ server: 'alpha', tool: 'x' }],
    [{ server: 'a', on: 1 }],
  ])
    assert.equal((await patch('checked', { toggles: bad })).ok, false, JSON.stringify(bad));
  // Past 1000 switched-off tools: refused as a whole, nothing written.
  const many = Array.from({ length: 1000 }, (_, i) => ({ server: 'alpha', tool: `t${i}`, on: false }));
  assert.equal((await patch('checked', { toggles: many })).ok, true);
  const over = await patch('checked', { toggles: [{ server: 'beta', tool: 'one-more', on: false }] });
  assert.deepEqual(over, {
    ok: false,
    error: 'Too many servers or tools switched off in this conversation.',
  });
  assert.equal((await stored('checked')).disabledTools.length, 1000);
  // The whole lists still replace (API clients of before), and another user's conversation is a 404.
  assert.equal((await patch('checked', { disabledTools: ['beta/q'], servers: ['beta'] })).ok, true);
  assert.deepEqual(await stored('checked'), { servers: ['beta'], disabledTools: ['beta/q'] });
  await assert.rejects(
    patchConversation(bob, 'checked', { toggles: [{ server: 'alpha', on: false }] }),
    (err: unknown) => err instanceof AppError && err.code === 'not_found',
  );
  assert.deepEqual(await stored('checked'), { servers: ['beta'], disabledTools: ['beta/q'] });
});

test("a new chat's switches made while its first answer is awaited are saved once the conversation exists", async () => {
  let exists = false;
  const sent: ToolChange[] = [];
  const tab = new ToolSettingsSync(
    {},
    {
      saved: () => exists,
      transport: {
        save: async (change) => {
          sent.push(change);
          return patch('first-answer', change);
        },
        read: () => patch('first-answer', {}),
      },
      onUpdate: () => {},
    },
  );
  // Before the first message: kept in the tab, carried by the message.
  tab.change(toggle({ server: 'alpha', tool: 'x', on: false }), SERVERS);
  const carried = tab.forFirstMessage();
  assert.deepEqual(carried.disabledTools, ['alpha/x']);
  // The turn stores the conversation with what the message carried.
  const now = new Date();
  await getDb()
    .insert(conversations)
    .values({
      id: 'first-answer',
      userId: alice.id,
      title: 'new',
      createdAt: now,
      updatedAt: now,
      ...carried,
    });
  // Switched while the answer is awaited (the tab does not know yet that the conversation exists).
  tab.change(toggle({ server: 'alpha', tool: 'y', on: false }), SERVERS);
  tab.change(toggle({ server: 'beta', on: false }), SERVERS);
  assert.deepEqual(sent, []);
  exists = true;
  tab.created();
  await tab.idle();
  assert.deepEqual(sent, [
    {
      toggles: [
        { server: 'alpha', tool: 'y', on: false },
        { server: 'beta', on: false },
      ],
    },
  ]);
  assert.deepEqual(await stored('first-answer'), {
    servers: ['alpha'],
    disabledTools: ['alpha/x', 'alpha/y'],
  });
  assert.deepEqual([...(tab.settings.disabledTools ?? [])].sort(), ['alpha/x', 'alpha/y']);
  // Nothing left to save: a second call sends nothing.
  tab.created();
  await tab.idle();
  assert.equal(sent.length, 1);
});
