import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, q, transaction } from '@/db/run';
import { openValue, sealValue } from '@/db/sealing';
import { mcpOauthClients, mcpUserSecrets } from '@/db/tables';

export type UserSecretKind = 'value' | 'oauth';

const byOwner = (userId: string, serverId: string, kind: UserSecretKind) =>
  and(
    eq(mcpUserSecrets.userId, userId),
    eq(mcpUserSecrets.serverId, serverId),
    eq(mcpUserSecrets.kind, kind),
  );

/**
 * One user's stored values of one kind for a server, opened. A value that no longer opens (the
 * encryption key changed) is left out, so the user is asked for it again.
 */
export async function getUserSecrets(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
): Promise<Record<string, string>> {
  const rows = await db
    .select()
    .from(mcpUserSecrets)
    .where(byOwner(userId, serverId, kind));
  const out: Record<string, string> = {};
  for (const row of rows) {
    const plain = openValue(db, row.value);
    if (plain !== null) out[row.key] = plain;
  }
  return out;
}

/** Whether a user keeps a value under this key (without opening it). */
export async function hasUserSecret(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
  key: string,
): Promise<boolean> {
  const rows = await db
    .select({ key: mcpUserSecrets.key })
    .from(mcpUserSecrets)
    .where(and(byOwner(userId, serverId, kind), eq(mcpUserSecrets.key, key)));
  return rows.length > 0;
}

/** Stores (sealed) or, for `null`, removes values of one kind, in one transaction. */
export async function setUserSecrets(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
  values: Record<string, string | null>,
): Promise<void> {
  await transaction(db, function* (tx) {
    for (const [key, value] of Object.entries(values)) {
      if (value === null) {
        yield* q(
          tx.delete(mcpUserSecrets).where(and(byOwner(userId, serverId, kind), eq(mcpUserSecrets.key, key))),
        );
        continue;
      }
      const sealed = sealValue(db, value);
      yield* q(
        tx
          .insert(mcpUserSecrets)
          .values({ userId, serverId, kind, key, value: sealed })
          .onConflictDoUpdate({
            target: [mcpUserSecrets.userId, mcpUserSecrets.serverId, mcpUserSecrets.kind, mcpUserSecrets.key],
            set: { value: sealed, updatedAt: new Date() },
          }),
      );
    }
  });
}

/** Forgets everything of one kind a user keeps for a server. */
export async function deleteUserSecrets(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
): Promise<void> {
  await db.delete(mcpUserSecrets).where(byOwner(userId, serverId, kind));
}

/** A dynamically registered OAuth client of an authorization server (JSON), opened; null when none. */
export async function getOauthClient(db: Db, issuer: string): Promise<string | null> {
  const row = first(await db.select().from(mcpOauthClients).where(eq(mcpOauthClients.issuer, issuer)));
  return row ? openValue(db, row.client) : null;
}

export async function setOauthClient(db: Db, issuer: string, client: string): Promise<void> {
  const sealed = sealValue(db, client);
  await db
    .insert(mcpOauthClients)
    .values({ issuer, client: sealed })
    .onConflictDoUpdate({ target: mcpOauthClients.issuer, set: { client: sealed } });
}

export async function deleteOauthClient(db: Db, issuer: string): Promise<void> {
  await db.delete(mcpOauthClients).where(eq(mcpOauthClients.issuer, issuer));
}
