import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, lockStep, nextUpdatedAt, q, transaction } from '@/db/run';
import { settings } from '@/db/tables';
import { type AppSettings, AppSettingsSchema, SettingsPatchSchema } from '@/lib/schemas/settings';

/** All settings, with defaults for keys never written. */
export async function getSettings(db: Db): Promise<AppSettings> {
  const rows = await db.select().from(settings);
  return AppSettingsSchema.parse(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

/**
 * The keys whose writes make a new version of the settings form: the ones it edits. Not the internal
 * `builtinsSeeded`, nor `passwordSignIn` (a switch on the SSO page, whose write names only itself), nor
 * the SSO provider (its own row, its own version).
 */
const VERSIONED: ReadonlySet<string> = new Set(
  Object.keys(SettingsPatchSchema.shape).filter((key) => key !== 'passwordSignIn'),
);

/** The settings' version: when one of the admin's settings was last written (the epoch before any was). */
function versionOf(rows: ReadonlyArray<{ key: string; updatedAt: Date }>): Date {
  const times = rows.filter((r) => VERSIONED.has(r.key)).map((r) => r.updatedAt.getTime());
  return new Date(Math.max(0, ...times));
}

/** GET /api/admin/settings: the settings and their version (`updatedAt`, what the form sends as If-Match). */
export async function getSettingsVersioned(db: Db): Promise<AppSettings & { updatedAt: string }> {
  const rows = await db.select().from(settings);
  const values = AppSettingsSchema.parse(Object.fromEntries(rows.map((r) => [r.key, r.value])));
  return { ...values, updatedAt: versionOf(rows).toISOString() };
}

/**
 * Writes the keys `patch` names. With `ifVersion` (the version the admin's form was opened at) only while
 * the settings are still that version: null, and nothing written, when another save came first, so a
 * stale form cannot put back the values another admin just saved. The settings are one row per key, so
 * the check and the write run as one transaction that writers of the settings take in turn (SQLite's
 * write lock, taken at its start; a lock on the settings on Postgres): of two saves at once, one wins.
 * `whileRow`: written only while that row (the sign-in provider, say) is still the version a check was
 * made against ('row-changed' otherwise, nothing written).
 */
export async function updateSettings(
  db: Db,
  patch: Partial<AppSettings>,
  ifVersion?: Date | null,
): Promise<AppSettings | null>;
export async function updateSettings(
  db: Db,
  patch: Partial<AppSettings>,
  ifVersion: Date | null,
  whileRow: { key: string; updatedAt: string } | undefined,
): Promise<AppSettings | null | 'row-changed'>;
export async function updateSettings(
  db: Db,
  patch: Partial<AppSettings>,
  ifVersion: Date | null = null,
  whileRow?: { key: string; updatedAt: string },
): Promise<AppSettings | null | 'row-changed'> {
  const written = await transaction(
    db,
    function* (tx) {
      yield* lockStep(tx, 'settings');
      const rows = yield* q(tx.select({ key: settings.key, updatedAt: settings.updatedAt }).from(settings));
      const current = versionOf(rows);
      // Compared to the millisecond, as GET shows it (toISOString).
      if (ifVersion && ifVersion.getTime() !== current.getTime()) return 'stale' as const;
      const guarded = whileRow && rows.find((r) => r.key === whileRow.key);
      if (whileRow && guarded?.updatedAt.toISOString() !== whileRow.updatedAt) return 'row-changed' as const;
      // Later than the version it replaces, even within one millisecond.
      const updatedAt = nextUpdatedAt(current);
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        yield* q(
          tx
            .insert(settings)
            .values({ key, value, updatedAt })
            .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } }),
        );
      }
      return 'written' as const;
    },
    { immediate: true },
  );
  if (written === 'row-changed') return written;
  return written === 'written' ? getSettings(db) : null;
}

export async function getSetting<K extends keyof AppSettings>(db: Db, key: K): Promise<AppSettings[K]> {
  const row = first(await db.select().from(settings).where(eq(settings.key, key)));
  return AppSettingsSchema.shape[key].parse(row?.value) as AppSettings[K];
}

/** The settings row of a first sign-up's claim on the admin role (not a setting: no schema key reads it). */
const FIRST_ADMIN_CLAIM = 'firstAdminClaim';
/** How long a claim holds: a first sign-up that failed after claiming leaves the role to the next after this. */
export const FIRST_ADMIN_CLAIM_MS = 60_000;

/**
 * Whether this sign-up, made while no account exists, becomes the first admin: of several at once (two
 * workers, two single sign-on first logins) exactly one. The claim is a row written under the settings'
 * lock; another sign-up finding a claim younger than FIRST_ADMIN_CLAIM_MS is an ordinary one.
 */
export function claimFirstAdmin(db: Db, now = new Date()): Promise<boolean> {
  return transaction(
    db,
    function* (tx) {
      yield* lockStep(tx, 'settings');
      const claim = first(
        yield* q(
          tx
            .select({ updatedAt: settings.updatedAt })
            .from(settings)
            .where(eq(settings.key, FIRST_ADMIN_CLAIM)),
        ),
      );
      if (claim && now.getTime() - claim.updatedAt.getTime() < FIRST_ADMIN_CLAIM_MS) return false;
      yield* q(
        tx
          .insert(settings)
          .values({ key: FIRST_ADMIN_CLAIM, value: true, updatedAt: now })
          .onConflictDoUpdate({ target: settings.key, set: { value: true, updatedAt: now } }),
      );
      return true;
    },
    { immediate: true },
  );
}
