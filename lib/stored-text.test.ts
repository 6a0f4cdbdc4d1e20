import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as z from '@/lib/zod';
import { UpdateAccountSchema } from '@/lib/schemas/account';
import { AssistantCreateSchema, AssistantPatchSchema } from '@/lib/schemas/assistants';
import { ApprovalRequestSchema, ChatRequestSchema } from '@/lib/schemas/chat-post';
import {
  BranchSelectSchema,
  ConversationImportSchema,
  ConversationPatchSchema,
  RenameSchema,
} from '@/lib/schemas/conversations';
import { CreateUserSchema } from '@/lib/schemas/users';
import { NO_NUL, storableText } from '@/lib/stored-text';

const message = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] };

// What a user types that a text column stores: with a NUL, a 400 naming the field on either database (Postgres
// text cannot hold it; without this check it was a 500 there and stored on SQLite).
const CASES: Array<[string, z.ZodType, unknown, string]> = [
  ['a rename', RenameSchema, { title: 'My\u0000chat' }, 'title'],
  ['a conversation rename', ConversationPatchSchema, { title: 'My\u0000chat' }, 'title'],
  ['conversation instructions', ConversationPatchSchema, { instructions: 'Be\u0000brief' }, 'instructions'],
  ['an assistant name', AssistantCreateSchema, { name: 'Helper\u0000', instructions: 'x' }, 'name'],
  ['assistant instructions', AssistantPatchSchema, { instructions: 'x\u0000' }, 'instructions'],
  ['the user’s own name', UpdateAccountSchema, { name: 'Ann\u0000' }, 'name'],
  [
    'a new user’s name',
    CreateUserSchema,
    { name: 'Ann\u0000', email: 'ann@example.com', password: 'long enough' },
    'name',
  ],
  [
    'a message id',
    ChatRequestSchema,
    { id: 'abcdefgh', message: { ...message, id: 'm\u0000' } },
    'message.id',
  ],
  ['the message it follows', ChatRequestSchema, { id: 'abcdefgh', message, parentId: 'p\u0000' }, 'parentId'],
  [
    'an approval',
    ApprovalRequestSchema,
    { id: 'abcdefgh', approvals: [{ id: 'c\u0000', approved: true }] },
    'approvals.0.id',
  ],
  ['a branch', BranchSelectSchema, { messageId: 'm\u0000' }, 'messageId'],
];

for (const [what, schema, body, field] of CASES)
  test(`${what} holding NUL is refused, the field named`, () => {
    const result = schema.safeParse(body);
    assert.equal(result.success, false);
    assert.deepEqual(
      result.error?.issues.map((i) => [i.path.join('.'), i.message]),
      [[field, NO_NUL]],
    );
  });

test('a message’s own text may hold NUL (its parts are JSON, which both databases store escaped)', () => {
  const body = { id: 'abcdefgh', message: { ...message, parts: [{ type: 'text', text: 'pasted\u0000' }] } };
  assert.ok(ChatRequestSchema.safeParse(body).success);
});

test('an imported file’s title keeps its place: U+FFFD for a NUL', () => {
  const file = {
    title: 'Old\u0000chat',
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'q\u0000' }] }],
  };
  const parsed = ConversationImportSchema.parse(file);
  assert.equal(parsed.title, 'Old\uFFFDchat');
  assert.deepEqual(parsed.messages[0]?.parts, [{ type: 'text', text: 'q\u0000' }]);
  assert.equal(storableText('a\u0000b\u0000'), 'a\uFFFDb\uFFFD');
  assert.equal(storableText(null), null);
});
