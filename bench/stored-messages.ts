/**
 * What validating stored messages at the DB edge costs (db/queries/messages.ts → lib/schemas/chat.ts).
 *
 * A chat turn reads the whole conversation, so this seeds one of 5,000 messages (questions, Markdown
 * answers, a tool call in every other answer: 10,000 parts) into a temp database and measures, p50/p95
 * over 100 runs: the turn's read (loadConversation), the full list (listMessages), and the validation
 * alone — the rows already read, mapped with and without it. Times are this process's CPU time, so
 * other load on the machine does not count. Measurements only, never pass/fail.
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/stored-messages.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase } from '@/db/client';
import { loadConversation } from '@/db/queries/conversations';
import { listMessages, toChatMessage } from '@/db/queries/messages';
import { conversations, messages, user } from '@/db/schema';
import type { ChatPart } from '@/lib/schemas/chat';
import { summarize } from './stats';

const MESSAGES = 5_000;
const RUNS = 100;
const ID = 'bench-stored-messages';

function partsOf(i: number): ChatPart[] {
  if (i % 2 === 0) return [{ type: 'text', text: `Question ${i}: how would I make step ${i} faster?` }];
  const answer: ChatPart = { type: 'text', text: `## Answer ${i}\n\n${'word '.repeat(100)}`, state: 'done' };
  if (i % 4 === 3) return [{ type: 'step-start' }, answer];
  const call: ChatPart = {
    type: 'dynamic-tool',
    toolName: 'time__now',
    toolCallId: `call_${i}`,
    state: 'output-available',
    input: { timezone: 'UTC' },
    output: { content: [{ type: 'text', text: '2026-01-01T12:00:00Z' }] },
    toolMetadata: { server: 'time', tool: 'now' },
  };
  return [{ type: 'step-start' }, call, { type: 'step-start' }, answer];
}

async function time(label: string, fn: () => unknown) {
  for (let i = 0; i < 5; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000);
  }
  const s = summarize(samples);
  console.log(
    `${label.padEnd(52)} p50 ${s.p50.toFixed(2).padStart(6)} ms CPU   p95 ${s.p95.toFixed(2).padStart(6)} ms`,
  );
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-stored-'));
const { db, sqlite } = openDatabase(path.join(dir, 'bench.db'));
try {
  const now = new Date();
  db.insert(user).values({ id: 'u', name: 'u', email: 'u@example.com' }).run();
  db.insert(conversations)
    .values({ id: ID, userId: 'u', title: 'bench', createdAt: now, updatedAt: now })
    .run();
  db.transaction((tx) => {
    for (let i = 0; i < MESSAGES; i++) {
      const assistant = i % 2 === 1;
      tx.insert(messages)
        .values({
          id: `m${i}`,
          conversationId: ID,
          role: assistant ? 'assistant' : 'user',
          parts: partsOf(i),
          metadata: assistant ? { createdAt: now.getTime(), model: 'm', usage: { totalTokens: 42 } } : null,
          parentId: i ? `m${i - 1}` : null,
          seq: i,
          createdAt: now,
        })
        .run();
    }
  });
  const rows = db
    .select({ id: messages.id, role: messages.role, parts: messages.parts, metadata: messages.metadata })
    .from(messages)
    .where(eq(messages.conversationId, ID))
    .all();
  console.log(`${MESSAGES} messages, ${rows.reduce((n, r) => n + r.parts.length, 0)} parts`);
  await time('loadConversation (the chat turn read)', () => loadConversation(db, 'u', ID));
  await time('listMessages', () => listMessages(db, ID));
  await time('rows → ChatMessage, validated (toChatMessage)', () => rows.map(toChatMessage));
  await time('rows → message, not validated (before)', () =>
    rows.map((m) => ({
      id: m.id,
      role: m.role,
      parts: m.parts,
      ...(m.metadata ? { metadata: m.metadata } : {}),
    })),
  );
} finally {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
