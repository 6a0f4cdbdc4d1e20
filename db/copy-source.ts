/**
 * The source database of db/copy.test.ts: a SQLite file made by the app's own migrations, with a row or
 * more in every table, and the awkward values a copy to Postgres must keep (ids, dates to the
 * millisecond, JSON, a branched message tree with a selected leaf, audit ids with a gap, U+0000).
 */
import { eq } from 'drizzle-orm';
import { openDatabase } from '@/db/client';
import * as lite from '@/db/schema';

const at = (iso: string) => new Date(iso);
export const text = (t: string) => [{ type: 'text', text: t }];

/** A SQLite database made by the app's own migrations, with a row or more in every table. */
export function buildSource(file: string): void {
  const { db, sqlite } = openDatabase(file);
  try {
    db.insert(lite.user)
      .values([
        {
          id: 'ann',
          name: 'Ann',
          email: 'ann@x.test',
          role: 'admin',
          emailVerified: true,
          locale: 'zh-CN',
          createdAt: at('2026-01-01T00:00:00.001Z'),
          updatedAt: at('2026-01-02T00:00:00Z'),
        },
        { id: 'bob', name: 'Bob \u0000 Nul', email: 'bob@x.test', disabled: true },
      ])
      .run();
    db.insert(lite.session)
      .values({
        id: 's1',
        token: 'tok',
        userId: 'ann',
        expiresAt: at('2027-01-01T00:00:00Z'),
        ipAddress: '127.0.0.1',
      })
      .run();
    db.insert(lite.account)
      .values({
        id: 'acc',
        accountId: 'ann',
        providerId: 'credential',
        userId: 'ann',
        password: 'hash',
        accessTokenExpiresAt: null,
      })
      .run();
    db.insert(lite.verification)
      .values({ id: 'v', identifier: 'x', value: 'y', expiresAt: at('2027-01-01T00:00:00Z') })
      .run();
    db.insert(lite.settings)
      .values([
        { key: 'a', value: { nested: [1, 'two', null], b: true } },
        { key: 'b', value: 'plain' },
      ])
      .run();
    db.insert(lite.mcpServers)
      .values({ id: 'srv', name: 'files', config: { command: 'x', args: ['--y'], env: { K: 'sealed:abc' } } })
      .run();
    db.insert(lite.mcpTools)
      .values({
        serverId: 'srv',
        tool: 'read',
        approval: 'ask',
        reviewedHash: 'h',
        reviewedDefinition: { name: 'read', inputSchema: { type: 'object' } },
        changed: true,
      })
      .run();
    db.insert(lite.mcpUserSecrets)
      .values({ userId: 'ann', serverId: 'srv', kind: 'oauth', key: 'tokens', value: 'sealed:zzz' })
      .run();
    db.insert(lite.mcpOauthClients).values({ issuer: 'https://issuer.test', client: 'sealed:client' }).run();
    db.insert(lite.providers)
      .values({
        id: 'p',
        name: 'OpenAI',
        baseURL: 'https://api.test/v1',
        apiKeyEncrypted: 'sealed:key',
        models: ['m1', 'm2'],
        allow: ['admin', 'bob@x.test'],
        modelAllow: { m2: ['admin'] },
        noVision: ['m1'],
        prices: { m1: { input: 0.15, output: 0.6 } },
      })
      .run();
    db.insert(lite.conversations)
      .values([
        {
          id: 'c1',
          userId: 'ann',
          title: 'Branches',
          titleSource: 'user',
          model: 'm1',
          allowedTools: ['files/read'],
          toolServers: ['files'],
          temperature: 0.3,
          maxSteps: 7,
          createdAt: at('2026-02-01T00:00:00Z'),
        },
        { id: 'c2', userId: 'bob', title: 'Other', assistantId: 'as1', instructions: 'Be brief.' },
      ])
      .run();
    db.insert(lite.assistants)
      .values({
        id: 'as1',
        userId: 'ann',
        name: 'Helper',
        instructions: 'Help.',
        toolMode: 'required',
        servers: null,
        temperature: 1.1,
        shared: true,
      })
      .run();
    // A tree: q1 → a1, a2 (a regenerate); q1' (an edit) → a3. The triggers pick a leaf; then the user selects a1.
    const m = (
      id: string,
      parentId: string | null,
      role: 'user' | 'assistant',
      seq: number,
      words: string,
    ) => ({
      id,
      conversationId: 'c1',
      parentId,
      role,
      seq,
      parts: text(words),
      createdAt: at(`2026-02-01T00:0${seq}:00Z`),
    });
    db.insert(lite.messages)
      .values(m('q1', null, 'user', 1, 'what is a quokka'))
      .run();
    db.insert(lite.messages)
      .values({ ...m('a1', 'q1', 'assistant', 2, 'a small marsupial'), metadata: { usage: { input: 5 } } })
      .run();
    db.insert(lite.messages)
      .values(m('a2', 'q1', 'assistant', 3, 'a wallaby cousin'))
      .run();
    db.insert(lite.messages)
      .values(m('q1b', null, 'user', 4, 'what is a numbat'))
      .run();
    db.insert(lite.messages)
      .values(m('a3', 'q1b', 'assistant', 5, 'an anteater of sorts'))
      .run();
    db.insert(lite.messages)
      .values({
        id: 'q1',
        conversationId: 'c2',
        role: 'user',
        seq: 1,
        parts: [
          { type: 'text', text: 'same id, other chat \u0000' },
          { type: 'file', url: '/api/files/f1', mediaType: 'image/png' },
        ],
      })
      .run();
    db.update(lite.conversations)
      .set({ leafId: 'a1', updatedAt: at('2026-03-01T12:34:56.789Z') })
      .where(eq(lite.conversations.id, 'c1'))
      .run();
    db.insert(lite.shares)
      .values({
        token: 'share-token',
        conversationId: 'c1',
        userId: 'ann',
        title: 'Branches',
        snapshot: [{ id: 'q1', parts: text('what is a quokka') }],
        includeToolDetails: true,
        ownerName: 'Ann',
      })
      .run();
    db.insert(lite.toolCalls)
      .values({
        id: 'tc',
        conversationId: 'c1',
        server: 'files',
        tool: 'read',
        durationMs: 12,
        outcome: 'error',
        errorKind: 'timeout',
        error: 'slow',
        resultBytes: 3_000_000_000,
      })
      .run();
    // Audit ids with a gap (rows pruned): the copy keeps them, and the next id follows the largest.
    for (const id of [1, 2, 40])
      db.insert(lite.auditLog)
        .values({
          id,
          action: `act-${id}`,
          outcome: 'ok',
          kind: 'admin',
          userId: 'ann',
          email: 'ann@x.test',
          count: id,
          lastAt: at('2026-02-02T00:00:00Z'),
        })
        .run();
    db.insert(lite.files)
      .values({
        id: 'f1',
        userId: 'bob',
        sha256: 'ab'.repeat(32),
        name: 'pic.png',
        mediaType: 'image/png',
        size: 1234,
      })
      .run();
  } finally {
    sqlite.close();
  }
}
