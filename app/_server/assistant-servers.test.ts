// A shared assistant may name servers limited to others (an admin made it with an admin-only server).
// The assistant's view already shows a user only the servers they may use; a chat they start with it
// must not carry the others into their conversation either, whose settings GET /api/conversations/[id]
// and the chat page show them: to a user outside its allow list a server does not exist (SPEC §7.2).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { appRequest, signUp } from '@/app/_server/test-auth';

const dir = mkdtempSync(join(tmpdir(), 'assistant-servers-'));
const APP = 'http://127.0.0.1:3983';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;
// No model provider: the turn stores the message and the conversation, then answers 503.
delete process.env.OPENAI_API_KEY;
delete process.env.OPENAI_BASE_URL;

const { getDb } = await import('@/db/client');
const { updateSettings } = await import('@/db/queries/settings');
const { getPool } = await import('@/lib/mcp/pool');
const { McpServerConfigSchema } = await import('@/lib/schemas/mcp');
const assistantsRoute = await import('@/app/api/assistants/route');
const chatRoute = await import('@/app/api/chat/route');
const conversationRoute = await import('@/app/api/conversations/[id]/route');

const call = (cookie: string, method: string, path: string, body?: unknown) =>
  appRequest(APP, cookie, method, path, body);

let admin = '';
let user = '';
before(async () => {
  admin = await signUp(APP, 'Ada', 'ada@example.com');
  await updateSettings(getDb(), { signupOpen: true });
  user = await signUp(APP, 'Bo', 'bo@example.com');
  // Per-user servers: nothing connects until someone uses one.
  const server = (name: string, allow: string[]) =>
    McpServerConfigSchema.parse({ name, transport: 'stdio', command: 'true', scope: 'user', allow });
  getPool().sync([server('everyone', ['*']), server('admins', ['admin'])]);
});
after(() => {
  getPool().sync([]);
  rmSync(dir, { recursive: true, force: true });
});

test('a chat started with a shared assistant keeps only the servers the user may use', async () => {
  const made = await assistantsRoute.POST(
    call(admin, 'POST', '/api/assistants', {
      name: 'Ops desk',
      instructions: 'x',
      servers: ['everyone', 'admins'],
      shared: true,
    }),
    undefined,
  );
  assert.equal(made.status, 201, await made.clone().text());
  const { id: assistantId } = (await made.json()) as { id: string };
  const id = 'conv-with-ops-desk';
  const chat = await chatRoute.POST(
    call(user, 'POST', '/api/chat', {
      id,
      message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      assistantId,
    }),
    undefined,
  );
  assert.equal(chat.status, 503, await chat.text());
  const res = await conversationRoute.GET(call(user, 'GET', `/api/conversations/${id}?messages=0`), {
    params: Promise.resolve({ id }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(((await res.json()) as { servers: string[] | null }).servers, ['everyone']);
});
