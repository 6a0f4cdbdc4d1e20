import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { fetch as undiciFetch } from 'undici';
import { getDb } from '@/db/client';
import { getSetting } from '@/db/queries/settings';
import {
  deleteSsoProvider,
  getSsoProvider,
  getSsoProviderPublic,
  SSO_PROVIDER_KEY,
  saveSsoProvider,
} from '@/db/queries/sso';
import { unreadableMessage } from '@/db/sealing';
import { account, user } from '@/db/tables';
import { invalidateAuth } from '@/app/_server/auth';
import { getEnv } from '@/lib/env';
import { AppError, changedSince } from '@/lib/errors';
import {
  checkDiscovery,
  type Discovery,
  domainAllowed,
  discoveryUrl,
  isSecureOrLoopback,
  SSO_CALLBACK_PATH,
  SSO_PROVIDER_ID,
  type SsoConfigInput,
  ssoAccountPrefix,
} from '@/lib/sso';

const FETCH_TIMEOUT_MS = 5000;
const MAX_DOCUMENT_BYTES = 256 * 1024;
const UNREADABLE_SECRET = unreadableMessage(['client secret']);

/** Email and password sign-in is on: the admin's setting, or FORCE_PASSWORD_SIGN_IN=1 (recovery). */
export async function passwordSignInEnabled(): Promise<boolean> {
  return getEnv().FORCE_PASSWORD_SIGN_IN || (await getSetting(getDb(), 'passwordSignIn'));
}

/** JSON from the provider: no redirects, a timeout, a size cap; the reason when it fails. */
async function fetchJson(url: string, what: string): Promise<unknown> {
  let res: Awaited<ReturnType<typeof undiciFetch>>;
  try {
    res = await undiciFetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new AppError(
      'bad_request',
      `The ${what} (${url}) could not be fetched: ${cause?.code ?? cause?.message ?? (err as Error).message}.`,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new AppError('bad_request', `The ${what} (${url}) answered HTTP ${res.status}.`);
  }
  const text = await res.text();
  if (text.length > MAX_DOCUMENT_BYTES) throw new AppError('bad_request', `The ${what} is too large.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request', `The ${what} (${url}) is not JSON.`);
  }
}

/**
 * The provider's discovery document, checked (lib/sso.ts checkDiscovery), and its JWKS holding at least
 * one signing key: what sign-in will need, tried now so that a mistake shows when the admin saves.
 */
export async function verifyProvider(issuer: string): Promise<Discovery> {
  if (!isSecureOrLoopback(issuer))
    throw new AppError('bad_request', 'The issuer must be an https URL (http only for localhost).', {
      issuer: 'must be https',
    });
  const checked = checkDiscovery(await fetchJson(discoveryUrl(issuer), 'discovery document'), issuer);
  if (!checked.ok) throw new AppError('bad_request', checked.reason, { issuer: checked.reason });
  const jwks = (await fetchJson(checked.doc.jwks_uri, 'key set (jwks_uri)')) as { keys?: unknown };
  if (!Array.isArray(jwks?.keys) || jwks.keys.length === 0)
    throw new AppError('bad_request', "The provider's key set (jwks_uri) has no keys.", {
      issuer: 'no signing keys',
    });
  return checked.doc;
}

/** Accounts linked to the provider at this issuer (links made under an earlier issuer no longer sign in). */
const linkedAt = (issuer: string) => {
  const prefix = ssoAccountPrefix(issuer);
  return and(
    eq(account.providerId, SSO_PROVIDER_ID),
    sql`substr(${account.accountId}, 1, ${prefix.length}) = ${prefix}`,
  );
};

/** Enabled admins who have signed in with the provider (or linked it), with their emails. */
async function adminsWithSso(issuer: string | undefined): Promise<Array<{ id: string; email: string }>> {
  if (!issuer) return [];
  return getDb()
    .select({ id: user.id, email: user.email })
    .from(account)
    .innerJoin(user, eq(user.id, account.userId))
    .where(and(linkedAt(issuer), eq(user.role, 'admin'), eq(user.disabled, false)));
}

async function userHasSso(userId: string, issuer: string | undefined): Promise<boolean> {
  if (!issuer) return false;
  const rows = await getDb()
    .select({ id: account.id })
    .from(account)
    .where(and(linkedAt(issuer), eq(account.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** GET /api/admin/sso: the provider without its secret, and where sign-in stands. */
export async function ssoOverview(adminId: string) {
  const db = getDb();
  const stored = await getSsoProvider(db);
  const plain = await getSsoProviderPublic(db);
  return {
    provider: plain && {
      name: plain.name,
      issuer: plain.issuer,
      clientId: plain.clientId,
      hasClientSecret: stored?.secretUnreadable || Boolean(stored?.config?.clientSecret),
      allowedDomains: plain.allowedDomains,
      updatedAt: plain.updatedAt,
      error: stored?.secretUnreadable ? UNREADABLE_SECRET : null,
    },
    redirectUri: `${getEnv().APP_URL.replace(/\/+$/, '')}${SSO_CALLBACK_PATH}`,
    passwordSignIn: await getSetting(db, 'passwordSignIn'),
    passwordSignInForced: getEnv().FORCE_PASSWORD_SIGN_IN,
    linked: await userHasSso(adminId, plain?.issuer),
    adminsWithSso: (await adminsWithSso(plain?.issuer)).length,
  };
}

/** PUT /api/admin/sso: checks the provider, stores it (secret sealed) and reloads the auth library's config. */
export async function saveSso(input: SsoConfigInput, ifMatch: Date | null = null) {
  const db = getDb();
  const stored = await getSsoProvider(db);
  let clientSecret = input.clientSecret ?? '';
  if (!clientSecret) {
    if (stored?.secretUnreadable)
      throw new AppError('bad_request', UNREADABLE_SECRET, { clientSecret: 'enter it again' });
    clientSecret = stored?.config?.clientSecret ?? '';
  }
  const doc = await verifyProvider(input.issuer);
  const issuer = doc.issuer.replace(/\/+$/, '');
  // While password sign-in is off, the change must leave an admin able to sign in with the provider;
  // without such an admin it is written only while password sign-in is on (checked again as it is written:
  // another admin may turn it off meanwhile).
  const adminKeepsSso = (await adminsWithSso(issuer)).some((a) =>
    domainAllowed(a.email, input.allowedDomains),
  );
  const lockout = () =>
    new AppError(
      'conflict',
      'Password sign-in is off, and with this change no admin could sign in. Turn password sign-in on first.',
    );
  if (!adminKeepsSso && !(await getSetting(db, 'passwordSignIn'))) throw lockout();
  const saved = await saveSsoProvider(
    db,
    {
      name: input.name,
      issuer,
      clientId: input.clientId,
      clientSecret,
      allowedDomains: input.allowedDomains,
    },
    ifMatch,
    { whilePasswordSignIn: !adminKeepsSso },
  );
  if (saved === 'password-off') throw lockout();
  // The form's version is no longer the stored one: another admin saved (or removed) it meanwhile.
  if (!saved) throw changedSince('sign-in provider');
  invalidateAuth();
}

/**
 * DELETE /api/admin/sso: refused while password sign-in is off (nobody could sign in), checked as one step
 * with the removal (another admin may be turning it off at this moment).
 */
export async function removeSso(): Promise<void> {
  if (!(await deleteSsoProvider(getDb())))
    throw new AppError(
      'conflict',
      'Turn password sign-in back on before removing single sign-on, or nobody could sign in.',
    );
  invalidateAuth();
}

/**
 * Before password sign-in goes off: the provider must be set up and answering now, and at least one
 * enabled admin must have signed in with it (linked it to their account), so an admin can still get in.
 * Recovery if the provider later fails: FORCE_PASSWORD_SIGN_IN=1 and a restart (README). Answers the
 * provider's stored version the checks passed on: the caller writes the setting only while it is still
 * that one (ssoUnchangedSince), as another admin may change or remove the provider during the checks.
 */
export async function assertPasswordSignInCanBeOff(): Promise<string> {
  const stored = await getSsoProvider(getDb());
  if (!stored?.config)
    throw new AppError(
      'conflict',
      stored?.secretUnreadable
        ? `Password sign-in stays on: ${UNREADABLE_SECRET}`
        : 'Password sign-in stays on: set up single sign-on first.',
    );
  try {
    await verifyProvider(stored.config.issuer);
  } catch (err) {
    throw new AppError(
      'conflict',
      `Password sign-in stays on: the identity provider does not work now. ${(err as Error).message}`,
    );
  }
  const { issuer, allowedDomains } = stored.config;
  if ((await adminsWithSso(issuer)).filter((a) => domainAllowed(a.email, allowedDomains)).length === 0)
    throw new AppError(
      'conflict',
      `Password sign-in stays on: no admin has signed in with ${stored.config.name} yet. Link your account first.`,
    );
  return stored.config.updatedAt;
}

/** The condition of updateSettings for a setting checked against the provider at `version`. */
export const ssoUnchangedSince = (version: string) => ({ key: SSO_PROVIDER_KEY, updatedAt: version });

/** Password sign-in stayed on: the provider was changed or removed while its checks ran. */
export const ssoChangedMeanwhile = () =>
  new AppError(
    'conflict',
    'Password sign-in stays on: single sign-on was changed or removed meanwhile. Check it, then try again.',
  );
