import http from 'node:http';
import { cookieHeader, request } from '@/bench/chat-turn-http';
import type { ChatMessage } from '@/lib/schemas/chat';
import type { Stack } from './harness';

/**
 * The fault tests' client of the running app (test/app-faults/harness.ts re-exports it): accounts and
 * sessions, chat turns (whole, or cut mid-stream), conversations as a reload shows them, and what
 * the streamed and stored answers hold.
 */

export type Auth = { origin: string; cookie: string };
export type Account = { name: string; email: string; password: string };

/** Signs up (the first account becomes the admin) and returns the session headers. */
export async function signUp(stack: Stack, account: Account): Promise<Auth> {
  const origin = { origin: stack.appUrl };
  const res = await request(`${stack.appUrl}/api/auth/sign-up/email`, 'POST', origin, account);
  if (res.status !== 200)
    throw new Error(`sign-up of ${account.email} failed: HTTP ${res.status} ${res.body}`);
  return { ...origin, cookie: cookieHeader(res.headers) };
}

/** The admin lifts the per-user chat limits (requests per minute, answers at once). */
export async function liftChatLimits(stack: Stack, admin: Auth): Promise<void> {
  const res = await request(`${stack.appUrl}/api/admin/settings`, 'PATCH', admin, {
    chatRequestsPerMinute: 10_000,
    maxConcurrentTurns: 1000,
  });
  if (res.status !== 200) throw new Error(`raising the chat limits failed: HTTP ${res.status} ${res.body}`);
}

export const chatBody = (conversationId: string, messageId: string, text: string) => ({
  id: conversationId,
  message: { id: messageId, role: 'user', parts: [{ type: 'text', text }] },
});

/** The admin creates a user with `account` (role user), who then signs in: their session and id. */
export async function addUser(
  stack: Stack,
  admin: Auth,
  account: Account,
): Promise<{ auth: Auth; id: string }> {
  const created = await request(`${stack.appUrl}/api/admin/users`, 'POST', admin, {
    ...account,
    role: 'user',
  });
  if (created.status !== 201)
    throw new Error(`creating ${account.email} failed: HTTP ${created.status} ${created.body}`);
  const signIn = await request(
    `${stack.appUrl}/api/auth/sign-in/email`,
    'POST',
    { origin: stack.appUrl },
    { email: account.email, password: account.password },
  );
  if (signIn.status !== 200)
    throw new Error(`sign-in of ${account.email} failed: HTTP ${signIn.status} ${signIn.body}`);
  return {
    auth: { origin: stack.appUrl, cookie: cookieHeader(signIn.headers) },
    id: JSON.parse(created.body).id as string,
  };
}

let seq = 0;
/** A fresh id that POST /api/chat accepts (^[A-Za-z0-9_-]{8,64}$). */
export const newId = (prefix: string) =>
  `${prefix}-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

/** A whole chat turn (the SSE body buffered). */
export function chat(stack: Stack, auth: Auth, body: unknown) {
  return request(`${stack.appUrl}/api/chat`, 'POST', auth, body);
}

/**
 * Starts a chat turn and resolves once the streamed body matches `until` (the socket is still open):
 * `cut()` then closes it like a closed tab; `silence()` stops reading without closing (a dead network).
 */
export function chatUntil(stack: Stack, auth: Auth, body: unknown, until: RegExp, timeoutMs = 15_000) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise<{ text: string; cut: () => void; silence: () => void }>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no ${until} in the stream after ${timeoutMs} ms: ${text.slice(-500)}`));
    }, timeoutMs);
    const req = http.request(`${stack.appUrl}/api/chat`, {
      method: 'POST',
      agent: false,
      headers: { ...auth, 'content-type': 'application/json', 'content-length': String(payload.length) },
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`POST /api/chat: HTTP ${res.statusCode}`));
      res.setEncoding('utf8');
      const onData = (chunk: string) => {
        text += chunk;
        if (!until.test(text)) return;
        clearTimeout(timer);
        res.off('data', onData);
        resolve({ text, cut: () => req.destroy(), silence: () => res.pause() });
      };
      res.on('data', onData);
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(payload);
  });
}

/** GET /api/conversations/[id]: what a reload shows. */
export async function conversation(
  stack: Stack,
  auth: Auth,
  id: string,
): Promise<{ status: number; messages: ChatMessage[] }> {
  const res = await request(`${stack.appUrl}/api/conversations/${id}`, 'GET', auth);
  return {
    status: res.status,
    messages: res.status === 200 ? (JSON.parse(res.body).messages as ChatMessage[]) : [],
  };
}

/** Tool parts of a stored message (MCP tools are all `dynamic-tool` parts). */
export const toolParts = (m: ChatMessage | undefined) =>
  (m?.parts ?? []).filter((p) => p.type === 'dynamic-tool');

/** The answer's text from a UI message stream (SSE) body: every `text-delta` joined. */
export function streamedText(sse: string): string {
  let text = '';
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice(6)) as { type: string; delta?: string };
    if (chunk.type === 'text-delta') text += chunk.delta ?? '';
  }
  return text;
}
