import 'server-only';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError } from 'better-auth/api';
import { nextCookies } from 'better-auth/next-js';
import { getDb } from '@/db/client';
import { getSetting } from '@/db/queries/settings';
import { countUsers, getUserById } from '@/db/queries/users';
import * as schema from '@/db/schema';
import { getEnv, trustedOrigins } from '@/lib/env';
import { processState } from '@/lib/process-state';

/** Set by app/_server/auth-gate.ts on every request it hands to the library (kept here to avoid an import cycle). */
export const AUTH_CLIENT_ADDRESS_HEADER = 'x-mcp-chat-client-address';

function createAuth() {
  const env = getEnv();
  return betterAuth({
    database: drizzleAdapter(getDb(), { provider: 'sqlite', schema }),
    secret: env.AUTH_SECRET,
    baseURL: env.APP_URL,
    trustedOrigins: trustedOrigins(),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
    },
    user: {
      additionalFields: {
        role: { type: 'string', defaultValue: 'user', input: false },
        disabled: { type: 'boolean', defaultValue: false, input: false },
      },
    },
    // No session cookie cache: every request reads its session row (one indexed lookup), so sign-out,
    // disabling and a password change end a session on the very next request, also for copied cookies.
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, cookieCache: { enabled: false } },
    // The client address comes from the socket, or a trusted proxy (app/_server/auth-gate.ts sets it).
    advanced: { ipAddress: { ipAddressHeaders: [AUTH_CLIENT_ADDRESS_HEADER] } },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 300,
      customRules: { '/sign-in/email': { window: 60, max: 30 }, '/sign-up/email': { window: 60, max: 30 } },
    },
    databaseHooks: {
      user: {
        create: {
          // The first account becomes admin; after that, self sign-up needs the admin's "signupOpen".
          before: async (data, ctx) => {
            const db = getDb();
            if (countUsers(db) === 0) return { data: { ...data, role: 'admin' } };
            if (ctx?.path === '/sign-up/email' && !getSetting(db, 'signupOpen')) {
              throw new APIError('FORBIDDEN', {
                message: 'Sign-up is closed. Ask an admin to create your account.',
              });
            }
            return { data };
          },
        },
      },
      session: {
        create: {
          before: async (data) => {
            const owner = getUserById(getDb(), data.userId);
            if (!owner || owner.disabled)
              throw new APIError('FORBIDDEN', { message: 'This account is disabled.' });
            return { data };
          },
        },
      },
    },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

declare module '@/lib/process-state' {
  interface OwnedSlots {
    auth: Auth;
  }
}

export function getAuth(): Auth {
  return processState('auth', createAuth);
}
