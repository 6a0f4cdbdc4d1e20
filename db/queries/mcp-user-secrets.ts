import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { openValue, sealValue } from '@/db/sealing';
import { mcpOauthClients, mcpUserSecrets } from '@/db/schema';

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
export function getUserSecrets(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
): Record<string, string> {
  const rows = db
    .select()
    .from(mcpUserSecrets)
    .where(byOwner(userId, serverId, kind))
    .all();
  const out: Record<string, string> = {};
  for (const row of rows) {
    const plain = openValue(db, row.value);
    if (plain !== null) out[row.key] = plain;
  }
  return out;
}

/** Whether a user keeps a value under this key (without opening it). */
export function hasUserSecret(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
  key: string,
): boolean {
  return (
    db
      .select({ key: mcpUserSecrets.key })
      .from(mcpUserSecrets)
      .where(and(byOwner(userId, serverId, kind), eq(mcpUserSecrets.key, key)))
      .get() !== undefined
  );
}

/** Stores (sealed) or, for `null`, removes values of one kind, in one transaction. */
export function setUserSecrets(
  db: Db,
  userId: string,
  serverId: string,
  kind: UserSecretKind,
  values: Record<string, string | null>,
): void {
  db.transaction((tx) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === null) {
        tx.delete(mcpUserSecrets)
          .where(and(byOwner(userId, serverId, kind), eq(mcpUserSecrets.key, key)))
          .run();
        continue;
      }
      const sealed = sealValue(db, value);
      tx.insert(mcpUserSecrets)
        .values({ userId, serverId, kind, key, value: sealed })
        .onConflictDoUpdate({
          target: [mcpUserSecrets.userId, mcpUserSecrets.serverId, mcpUserSecrets.kind, mcpUserSecrets.key],
          set: { value: sealed, updatedAt: new Date() },
        })
        .run();
    }
  });
}

/** Forgets everything of one kind a user keeps for a server. */
export function deleteUserSecrets(db: Db, userId: string, serverId: string, kind: UserSecretKind): void {
  db.delete(mcpUserSecrets)
    .where(byOwner(userId, serverId, kind))
    .run();
}

/** A dynamically registered OAuth client of an authorization server (JSON), opened; null when none. */
export function getOauthClient(db: Db, issuer: string): string | null {
  const row = db.select().from(mcpOauthClients).where(eq(mcpOauthClients.issuer, issuer)).get();
  return row ? openValue(db, row.client) : null;
}

export function setOauthClient(db: Db, issuer: string, client: string): void {
  const sealed = sealValue(db, client);
  db.insert(mcpOauthClients)
    .values({ issuer, client: sealed })
    .onConflictDoUpdate({ target: mcpOauthClients.issuer, set: { client: sealed } })
    .run();
}

export function deleteOauthClient(db: Db, issuer: string): void {
  db.delete(mcpOauthClients).where(eq(mcpOauthClients.issuer, issuer)).run();
}
