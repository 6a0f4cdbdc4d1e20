import 'server-only';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError } from 'better-auth/api';
import { nextCookies } from 'better-auth/next-js';
import { type GenericOAuthConfig, genericOAuth } from 'better-auth/plugins/generic-oauth';
import { getDb } from '@/db/client';
import { claimFirstAdmin, getSetting } from '@/db/queries/settings';
import { getSsoProvider } from '@/db/queries/sso';
import { countUsers, getUserById } from '@/db/queries/users';
import { schema, usesPostgres } from '@/db/tables';
import { authLog } from '@/lib/auth-log';
import { getEnv, trustedOrigins } from '@/lib/env';
import { dropProcessState, processState } from '@/lib/process-state';
import { invalidateSessions } from '@/app/_server/hot-cache';
import { publishInvalidation } from '@/lib/shared/invalidation';
import { authRateLimitStorage } from '@/lib/shared/limits';
import { checkSsoIdentity, discoveryUrl, SSO_PROVIDER_ID, type SsoConfig, ssoAccountId } from '@/lib/sso';
import { storableText } from '@/lib/stored-text';

/** What self sign-up answers while the admin keeps it closed (SPEC §3). */
export const SIGN_UP_CLOSED = 'Sign-up is closed. Ask an admin to create your account.';

/** Whether self sign-up is open: for the first account (it becomes admin), else by the admin's setting. */
export async function signUpOpen(): Promise<boolean> {
  const db = getDb();
  return (await getSetting(db, 'signupOpen')) || (await countUsers(db)) === 0;
}

/** Set by app/_server/auth-gate.ts on every request it hands to the library (kept here to avoid an import cycle). */
export const AUTH_CLIENT_ADDRESS_HEADER = 'x-mcp-chat-client-address';

/**
 * The admin's OpenID Connect provider as a better-auth generic OAuth provider. Discovery runs when the
 * instance starts (and again on the first sign-in if the provider was unreachable then); id_tokens must
 * verify against the provider's JWKS, and carry the nonce of their own sign-in.
 */
function ssoProviderConfig(sso: SsoConfig): GenericOAuthConfig {
  return {
    providerId: SSO_PROVIDER_ID,
    name: sso.name,
    discoveryUrl: discoveryUrl(sso.issuer),
    requireIdTokenVerification: true,
    // The verified subject (the library checks the profile's `sub` against the id_token's), per issuer.
    // A NUL in it is U+FFFD here only so that looking the account up cannot fail on Postgres; such an
    // identity is refused before anything is written (checkSsoIdentity, in validateUserInfo below).
    accountSubject: ({ profile }) => {
      const sub = profile.sub == null ? '' : String(profile.sub);
      return sub ? ssoAccountId(sso.issuer, storableText(sub)) : '';
    },
    clientId: sso.clientId,
    clientSecret: sso.clientSecret || undefined,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    // Providers without a secret (public clients) authenticate at the token endpoint with PKCE alone.
    tokenEndpointAuth: sso.clientSecret ? undefined : { method: 'none' },
    // Only the identity fields: nothing else from the provider's profile reaches the user row.
    mapProfileToUser: (profile) => {
      // As with `sub`: safe to look up on either database; holding NUL, it is refused (checkSsoIdentity).
      const email = typeof profile.email === 'string' ? storableText(profile.email) : undefined;
      // The provider's words: a NUL (which a Postgres text column cannot hold) is kept as U+FFFD.
      const name = typeof profile.name === 'string' ? storableText(profile.name.trim().slice(0, 100)) : '';
      return { email, name: name || email?.split('@')[0] || 'User' };
    },
  };
}

function createAuth(sso: SsoConfig | null) {
  const env = getEnv();
  return betterAuth({
    database: drizzleAdapter(getDb(), { provider: usesPostgres ? 'pg' : 'sqlite', schema }),
    secret: env.AUTH_SECRET,
    baseURL: env.APP_URL,
    // Its lines without the values a request brought (a failed insert's Postgres detail names the email).
    logger: { log: authLog },
    trustedOrigins: trustedOrigins(),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
    },
    account: {
      // An existing account is never taken over by signing in with the provider under the same email:
      // its owner links the provider while signed in (POST /api/auth/link-social), proving both.
      accountLinking: { enabled: true, disableImplicitLinking: true, allowDifferentEmails: false },
      // The provider's access and refresh tokens are kept (the library stores them), encrypted.
      encryptOAuthTokens: true,
    },
    user: {
      /**
       * Identities from the provider: an email and account id without NUL, allowed email domain, verified
       * email (lib/sso.ts). Runs before the account or user is written, at sign-up, sign-in and linking.
       */
      validateUserInfo: async ({ user, source }) => {
        if (source.method !== 'oauth' || source.oauth?.providerId !== SSO_PROVIDER_ID) return;
        const current = (await getSsoProvider(getDb()))?.config;
        if (!current)
          return { error: 'sso_not_configured', errorDescription: 'Single sign-on is not set up.' };
        return (
          checkSsoIdentity({ email: user.email, profile: source.oauth.profile }, current.allowedDomains) ??
          undefined
        );
      },
      additionalFields: {
        role: { type: 'string', defaultValue: 'user', input: false },
        disabled: { type: 'boolean', defaultValue: false, input: false },
      },
    },
    // No session cookie cache (a cookie cannot be recalled): sessions are looked up in the database,
    // and the in-process reuse of a lookup (app/_server/hot-cache.ts) is dropped when any session is
    // deleted, so sign-out, disabling and a password change end a session on the very next request,
    // also for copied cookies.
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, cookieCache: { enabled: false } },
    // The client address comes from the socket, or a trusted proxy (app/_server/auth-gate.ts sets it).
    advanced: { ipAddress: { ipAddressHeaders: [AUTH_CLIENT_ADDRESS_HEADER] } },
    rateLimit: {
      enabled: true,
      // With REDIS_URL, counted in Redis: one allowance for all workers and instances.
      customStorage: authRateLimitStorage(),
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/email': { window: 60, max: 30 },
        '/sign-up/email': { window: 60, max: 30 },
        // Starting single sign-on (the library's default for /sign-in/* is 3 per 10 s, too few for an
        // office behind one address); the provider's own sign-in is the real gate.
        '/sign-in/social': { window: 60, max: 30 },
        '/link-social': { window: 60, max: 30 },
      },
    },
    databaseHooks: {
      user: {
        create: {
          // The first account becomes admin (one of several sign-ups at once: claimFirstAdmin); after
          // that, self sign-up needs the admin's "signupOpen".
          before: async (data, ctx) => {
            const db = getDb();
            if ((await countUsers(db)) === 0 && (await claimFirstAdmin(db)))
              return { data: { ...data, role: 'admin' } };
            // Through single sign-on (the allowed domains are the gate): always an ordinary user.
            if (ctx?.path?.startsWith('/callback/')) return { data: { ...data, role: 'user' } };
            if (ctx?.path === '/sign-up/email' && !(await getSetting(db, 'signupOpen'))) {
              throw new APIError('FORBIDDEN', { message: SIGN_UP_CLOSED });
            }
            return { data };
          },
        },
      },
      session: {
        create: {
          before: async (data) => {
            const owner = await getUserById(getDb(), data.userId);
            if (!owner || owner.disabled)
              throw new APIError('FORBIDDEN', { message: 'This account is disabled.' });
            return { data };
          },
        },
        // Sign-out, a revoked session, a password change, an expired session: no request is let in
        // by a cached lookup of it afterwards (app/_server/hot-cache.ts).
        delete: { after: async () => invalidateSessions() },
      },
    },
    plugins: [genericOAuth({ config: sso ? [ssoProviderConfig(sso)] : [] }), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

declare module '@/lib/process-state' {
  interface OwnedSlots {
    auth: Promise<Auth>;
  }
}

/**
 * The auth instance, built with the single sign-on provider read when it is built; an admin's change
 * drops it (invalidateAuth) so the next request builds one with the new provider, without a restart.
 */
export function getAuth(): Promise<Auth> {
  return processState('auth', () => {
    const built = getSsoProvider(getDb()).then((stored) => createAuth(stored?.config ?? null));
    // A failed read is not kept: the next request builds it again.
    built.catch(() => dropProcessState('auth'));
    return built;
  });
}

/** After the admin changes single sign-on: the next request builds the instance with the new provider. */
export function invalidateAuth(): void {
  dropProcessState('auth');
  publishInvalidation('auth');
}
