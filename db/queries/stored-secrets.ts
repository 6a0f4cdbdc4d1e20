import 'server-only';
import { eq, like } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { q, transaction } from '@/db/run';
import { openLegacyValue, sealValue } from '@/db/sealing';
import { mcpServers, providers } from '@/db/tables';
import { isSealed } from '@/lib/secret-box';

/** The config fields whose values are secrets (stdio env, http/sse headers). */
export const SECRET_FIELDS = ['env', 'headers'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored config with every secret value that is not sealed yet sealed; null when nothing changes. */
function sealPlainValues(db: Db, config: Record<string, unknown>): Record<string, unknown> | null {
  let changed = false;
  const out = { ...config };
  for (const field of SECRET_FIELDS) {
    const values = config[field];
    if (!isRecord(values)) continue;
    out[field] = Object.fromEntries(
      Object.entries(values).map(([k, v]) => {
        if (typeof v !== 'string' || isSealed(v)) return [k, v];
        changed = true;
        return [k, sealValue(db, v)];
      }),
    );
  }
  return changed ? out : null;
}

/**
 * The data migration run each time the database opens (idempotent): MCP env and header values stored
 * in clear are sealed under ENCRYPTION_KEY, and provider keys sealed as v1 under AUTH_SECRET are
 * resealed under ENCRYPTION_KEY. A value already sealed, even under another key, is left alone: it is
 * reported when read, never sealed a second time.
 */
export async function sealStoredSecrets(db: Db): Promise<{ servers: number; providers: number }> {
  const done = { servers: 0, providers: 0 };
  // On SQLite the whole transaction runs before this returns (db/run.ts), so opening a database seals at once.
  await transaction(db, function* (tx) {
    for (const row of yield* q(
      tx.select({ id: mcpServers.id, config: mcpServers.config }).from(mcpServers),
    )) {
      const config = sealPlainValues(db, row.config);
      if (!config) continue;
      yield* q(tx.update(mcpServers).set({ config }).where(eq(mcpServers.id, row.id)));
      done.servers++;
    }
    const legacy = yield* q(
      tx
        .select({ id: providers.id, key: providers.apiKeyEncrypted })
        .from(providers)
        .where(like(providers.apiKeyEncrypted, 'v1.%')),
    );
    for (const row of legacy) {
      const plain = row.key ? openLegacyValue(db, row.key) : null;
      // Sealed under another AUTH_SECRET: left as it is, and reported as unreadable when read.
      if (plain === null) continue;
      yield* q(
        tx
          .update(providers)
          .set({ apiKeyEncrypted: sealValue(db, plain) })
          .where(eq(providers.id, row.id)),
      );
      done.providers++;
    }
  });
  if (done.servers || done.providers)
    console.log(
      `[secrets] sealed the stored secrets of ${done.servers} MCP server(s) and ${done.providers} provider(s) under ENCRYPTION_KEY`,
    );
  return done;
}
