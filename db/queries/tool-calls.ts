import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { toolCalls } from '@/db/schema';

export type NewToolCall = Omit<typeof toolCalls.$inferInsert, 'id' | 'createdAt'>;

export function recordToolCall(db: Db, call: NewToolCall): void {
  db.insert(toolCalls).values({ id: randomUUID(), ...call }).run();
}
