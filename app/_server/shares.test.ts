import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getDb } from '@/db/client';
import { conversations, messages } from '@/db/schema';
import { deleteOwnConversation } from '@/app/_server/conversation-turns';
import { shareConversation } from '@/app/_server/shares';
import { startUploadsForFile } from '@/app/_server/test-uploads';
import { AppError } from '@/lib/errors';

// Share links against a real database (the files tests' data folder, with the users alice and bob).
startUploadsForFile();

const alice = { id: 'alice', name: 'alice', email: 'alice@example.com', role: 'user' as const };
const opts = { includeToolDetails: false, includeOwnerName: false, includeFiles: false };

test('sharing a conversation deleted at the same moment (another tab) is a 404, never a server error', async () => {
  // The delete starts first; the share starts after `hops` turns of the event loop's job queue, so the
  // share's read, its snapshot and its write each land before, during and after the delete.
  for (let hops = 0; hops < 16; hops++) {
    const id = `conv-shared-while-deleted-${hops}`;
    await getDb().insert(conversations).values({ id, userId: 'alice', title: 'Soon gone' });
    await getDb()
      .insert(messages)
      .values({
        id: `m-${hops}`,
        conversationId: id,
        role: 'user',
        seq: 1,
        parts: [{ type: 'text', text: 'hi' }],
      });
    const deleting = deleteOwnConversation(alice, id);
    for (let i = 0; i < hops; i++) await Promise.resolve();
    const outcome = await shareConversation(alice, id, opts).then(
      () => 'shared',
      (err: unknown) => (err instanceof AppError ? err.code : String(err)),
    );
    await deleting;
    assert.ok(outcome === 'shared' || outcome === 'not_found', `after ${hops} hops: ${outcome}`);
  }
});
