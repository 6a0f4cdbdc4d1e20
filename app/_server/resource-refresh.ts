import 'server-only';
import { changeMessage } from '@/db/queries/message-writes';
import { getDb } from '@/db/client';
import { readResourceForMessage } from '@/app/_server/mcp-context';
import type { Principal } from '@/lib/access';
import { getPool } from '@/lib/mcp/pool';
import type { ChatMessage, ChatPart } from '@/lib/schemas/chat';

// Attached resources that change: where a server offers resources/subscribe, the resources attached to a
// conversation's messages are subscribed to on the user's connection at each turn (once per connection);
// when the server says one changed, the next turn reads it again before the model sees the conversation,
// and the messages keep the new text with `updatedAt` (their chips show "updated").

type ResourcePart = Extract<ChatPart, { type: 'data-resource' }>;
const isResource = (p: ChatPart): p is ResourcePart => p.type === 'data-resource';

function connectionOf(user: Principal, server: string) {
  try {
    return getPool().forUser(user).connection(server);
  } catch {
    return undefined;
  }
}

/** Subscribes to each attached resource (in the background; best effort; once per connection and URI). */
function watchAttached(user: Principal, parts: ChatPart[]): void {
  for (const p of parts.filter(isResource)) {
    const conn = connectionOf(user, p.data.server);
    void conn
      ?.request((client, timeout) => conn.watch.subscribe(client, p.data.uri, timeout))
      .catch(() => false);
  }
}

/**
 * Before the model sees the history: the attached resources are watched, and each one the server said
 * changed is read again, the messages holding it stored with the new text. One that cannot be read
 * keeps its old text (and is tried again next turn).
 */
export async function refreshChangedResources(
  user: Principal,
  conversationId: string,
  history: ChatMessage[],
): Promise<ChatMessage[]> {
  for (const m of history) watchAttached(user, m.parts);
  const changed = new Map<string, Promise<ResourcePart['data'] | null>>();
  const key = (p: ResourcePart) => `${p.data.server}\n${p.data.uri}`;
  for (const m of history)
    for (const p of m.parts.filter(isResource)) {
      const conn = connectionOf(user, p.data.server);
      // Stale for this conversation: another one reading it again does not make this copy fresh.
      if (!conn?.watch.isStale(p.data.uri, conversationId) || changed.has(key(p))) continue;
      const version = conn.watch.version(p.data.uri);
      changed.set(
        key(p),
        readResourceForMessage(user, p.data.server, p.data.uri).then(
          (read) => {
            conn.watch.read(p.data.uri, conversationId, version);
            return { ...read, updatedAt: new Date().toISOString() };
          },
          // Not read: it stays stale, and is tried again next turn.
          () => null,
        ),
      );
    }
  if (!changed.size) return history;
  const fresh = new Map<string, ResourcePart['data']>();
  for (const [k, read] of changed) {
    const data = await read;
    if (data) fresh.set(k, data);
  }
  const replace = (parts: ChatPart[]) =>
    parts.map((p) => {
      const data = isResource(p) ? fresh.get(key(p)) : undefined;
      return data && isResource(p) ? { ...p, data: { ...data, name: p.data.name } } : p;
    });
  return Promise.all(
    history.map(async (m) => {
      if (!m.parts.some((p) => isResource(p) && fresh.has(key(p)))) return m;
      return (
        (await changeMessage(getDb(), conversationId, m.id, (stored) => ({
          ...stored,
          parts: replace(stored.parts),
        }))) ?? {
          ...m,
          parts: replace(m.parts),
        }
      );
    }),
  );
}
