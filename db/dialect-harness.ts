/**
 * The shared setup of the db/dialects-*.test.ts files, whose scenarios check that the query layer behaves
 * the same on both databases. Each such file calls {@link dialectHarness} once at its top and
 * `rerunOnPostgres()` once at its end. Its scenarios then run on the process's database: a fresh SQLite
 * file normally; then, unless the process already runs on Postgres, the file runs itself again in a child
 * process with DATABASE_URL set to a fresh real Postgres (e2e/fixtures/postgres-server.ts), since the
 * tables a process queries are chosen when it starts (db/tables.ts). Scenario names start with
 * `${dialect}: `; the re-run passes only when every scenario that ran here also passed there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Db, openDatabase, openPostgresDatabase } from '@/db/client';
import { saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { user, usesPostgres } from '@/db/tables';
import { startPostgres } from '@/e2e/fixtures/postgres-server';
import type { ChatPart } from '@/lib/schemas/chat';

export const dialect = usesPostgres ? 'postgres' : 'sqlite';
export const text = (t: string): ChatPart[] => [{ type: 'text', text: t }];
export const ids = (list: Array<{ id: string }>) => list.map((m) => m.id);
/** A shared builtin server's config named `name` (createMcpServer's input), for scenarios about its tools. */
export const builtinServer = (name: string) => ({
  name,
  transport: 'builtin' as const,
  allow: ['*'],
  scope: 'shared' as const,
  userValues: [],
  builtin: 'time' as const,
  enabled: true,
  timeoutMs: 60_000,
});

/**
 * Opens a fresh database before the file's tests (with the users alice and bob) and closes it after;
 * `onOpen` receives it. `testFile` is the calling file's `import.meta.url`: the one the child re-runs.
 */
export function dialectHarness(testFile: string, onOpen: (db: Db) => void) {
  let db: Db;
  let close: () => Promise<void>;
  let handle: { statements: number } | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'dialects-'));
  const scenarios: string[] = [];

  before(async () => {
    const opened = usesPostgres
      ? openPostgresDatabase(process.env.DATABASE_URL as string)
      : openDatabase(join(dir, 'app.db'));
    await opened.ready;
    db = opened.db;
    close = opened.close;
    handle = opened;
    for (const id of ['alice', 'bob'])
      await db.insert(user).values({ id, name: id, email: `${id}@example.com`, role: 'user' });
    onOpen(db);
  });
  after(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach((t) => {
    if (t.name.startsWith(`${dialect}: `)) scenarios.push(t.name);
  });

  const ask = (
    c: string,
    id: string,
    t: string,
    opts: { parentId?: string | null; isNew?: boolean; title?: string } = {},
  ) =>
    saveUserMessage(db, {
      conversationId: c,
      userId: 'alice',
      title: opts.title ?? `title of ${c}`,
      model: null,
      isNew: opts.isNew ?? false,
      modelChanged: false,
      message: { id, role: 'user', parts: text(t) },
      parentId: opts.parentId,
    });
  const answer = (c: string, id: string, t: string, parentId?: string) =>
    saveAssistantMessage(db, c, { id, role: 'assistant', parts: text(t) }, parentId);

  /** Registers, last in the file, the run of the same file on a real Postgres (on SQLite only). */
  const rerunOnPostgres = () => rerunFileOnPostgres(testFile, scenarios);

  /** The statements the database has run so far (drizzle's count: BEGIN and COMMIT are not in it). */
  const statements = () => handle?.statements ?? 0;

  return { ask, answer, statements, rerunOnPostgres };
}

/**
 * Registers, last in the calling file, its run again in a child process on a fresh real Postgres (on
 * SQLite only): it passes when each of `scenarios` (test names starting `sqlite: `, collected as they ran
 * here) passed there too (as `postgres: …`). `testFile` is the calling file's `import.meta.url`.
 */
export function rerunFileOnPostgres(testFile: string, scenarios: string[]) {
  if (usesPostgres) return;
  test('the same scenarios on a real Postgres (a child process with DATABASE_URL)', async () => {
    assert.ok(scenarios.length > 0, 'the file ran scenarios on SQLite first');
    const pg = await startPostgres();
    try {
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--conditions=react-server',
          '--test',
          '--test-reporter=spec',
          relative(process.cwd(), fileURLToPath(testFile)),
        ],
        // Without the parent runner's NODE_TEST_CONTEXT, the child reports as a run of its own.
        {
          env: { ...process.env, NODE_TEST_CONTEXT: undefined, DATABASE_URL: pg.url },
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      assert.equal(child.status, 0, `${child.stdout}\n${child.stderr}`);
      const passed = child.stdout.split('\n').map((line) => line.trim());
      for (const name of scenarios) {
        const there = name.replace(/^sqlite: /, 'postgres: ');
        assert.ok(
          passed.some((line) => line.startsWith(`✔ ${there} (`)),
          `"${there}" did not pass on Postgres:\n${child.stdout}`,
        );
      }
    } finally {
      await pg.stop();
    }
  });
}
