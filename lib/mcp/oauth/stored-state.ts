import {
  OAuthClientInformationSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
  OpenIdProviderDiscoveryMetadataSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import * as z from '@/lib/zod';
import type { KeyValueStore } from '@/lib/mcp/oauth/store';

/**
 * The shapes McpOAuthProvider keeps in its stores, as JSON: per (user, server) the tokens (with when
 * the access token expires), the pending authorization (state and PKCE verifier), the last 401/403
 * challenge and the discovery state; per authorization server the registered client. Everything
 * read back is validated, and a missing or corrupt value reads as undefined (readJson), so a damaged
 * record starts the flow over instead of failing it.
 */

export const StoredTokensSchema = z.object({
  tokens: z.unknown().transform((v, ctx) => {
    const parsed = OAuthTokensSchema.safeParse(v);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: 'not OAuth tokens' });
      return z.NEVER;
    }
    return parsed.data;
  }),
  /** Epoch ms the access token expires at, when the server said (expires_in). */
  expiresAt: z.number().optional(),
});
export type StoredTokens = z.infer<typeof StoredTokensSchema>;

export const PendingSchema = z.object({
  state: z.string().min(1),
  verifier: z.string().min(1),
  createdAt: z.number(),
});
export type Pending = z.infer<typeof PendingSchema>;
/**
 * The authorizations in progress, newest last: one per "Connect" the user started (two tabs may each
 * start one), each finished by its own state. A record of one (as stored before) reads as a list of one.
 */
export const PendingListSchema = z.union([z.array(PendingSchema), PendingSchema.transform((p) => [p])]);
/** How many started authorizations are kept; starting another drops the oldest. */
export const MAX_PENDING = 5;

export const ChallengeSchema = z.object({
  scope: z.string().optional(),
  resourceMetadataUrl: z.string().optional(),
});
export type Challenge = z.infer<typeof ChallengeSchema>;

function sdkSchema<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }) {
  return z.unknown().transform((v, ctx) => {
    const parsed = schema.safeParse(v);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'invalid metadata' });
    return z.NEVER;
  });
}

export const DiscoverySchema = z.object({
  authorizationServerUrl: z.string().min(1),
  resourceMetadataUrl: z.string().optional(),
  resourceMetadata: sdkSchema(OAuthProtectedResourceMetadataSchema).optional(),
  authorizationServerMetadata: z
    .unknown()
    .transform((v, ctx) => {
      const oauth = OAuthMetadataSchema.safeParse(v);
      if (oauth.success) return oauth.data;
      const oidc = OpenIdProviderDiscoveryMetadataSchema.safeParse(v);
      if (oidc.success) return oidc.data;
      ctx.addIssue({ code: 'custom', message: 'invalid metadata' });
      return z.NEVER;
    })
    .optional(),
});

export const ClientInfoSchema = sdkSchema(OAuthClientInformationSchema.passthrough());

/** Reads and validates one JSON value; a missing or corrupt one reads as undefined. */
export async function readJson<T>(
  store: KeyValueStore,
  key: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const raw = await store.get(key);
  if (raw === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
