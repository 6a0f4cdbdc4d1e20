import { hasNoNul } from '@/lib/stored-text';
import * as z from '@/lib/zod';

/**
 * Single sign-on with one OpenID Connect provider, configured by an admin at runtime (issue 18): the
 * shapes the admin API takes, the checks of a discovery document, and the rules a person's identity
 * must pass (allowed email domains, email_verified). Pure: no database, no network.
 */

/** The better-auth provider id; the redirect URI to register at the provider is `<APP_URL>/api/auth/callback/sso`. */
export const SSO_PROVIDER_ID = 'sso';
export const SSO_CALLBACK_PATH = `/api/auth/callback/${SSO_PROVIDER_ID}`;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** https, or http on a loopback host (a provider on this machine, for development and tests). */
export function isSecureOrLoopback(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK.has(url.hostname) || /^127\./.test(url.hostname));
}

/** A domain name: labels of letters, digits and hyphens, at least one dot (`example.com`). */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

const domainList = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .transform((d) => d.replace(/^@/, ''))
      .refine((d) => DOMAIN.test(d), 'must be a domain name such as example.com'),
  )
  .min(1, 'name at least one email domain')
  .max(50)
  .transform((list) => [...new Set(list)]);

const issuer = z
  .string()
  .trim()
  .max(2000)
  .refine(isSecureOrLoopback, 'must be an https URL (http only for localhost)')
  .transform((v) => v.replace(/\/+$/, ''));

/** PUT /api/admin/sso: the whole provider. An empty or absent secret keeps the stored one. */
export const SsoConfigInputSchema = z
  .object({
    name: z.string().trim().min(1).max(60),
    issuer,
    clientId: z.string().trim().min(1).max(500),
    clientSecret: z.string().max(2000).optional(),
    allowedDomains: domainList,
  })
  .strict();
export type SsoConfigInput = z.infer<typeof SsoConfigInputSchema>;

/** The stored provider, secret in the clear (db/queries/sso.ts seals it at rest). */
export type SsoConfig = {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowedDomains: string[];
  updatedAt: string;
};

/** The discovery document's URL for an issuer (OpenID Connect Discovery 1.0 §4). */
export const discoveryUrl = (iss: string) => `${iss.replace(/\/+$/, '')}/.well-known/openid-configuration`;

/** The part of a discovery document sign-in relies on. */
const DiscoverySchema = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    userinfo_endpoint: z.string().optional(),
    response_types_supported: z.array(z.string()).optional(),
    id_token_signing_alg_values_supported: z.array(z.string()).min(1),
    code_challenge_methods_supported: z.array(z.string()).optional(),
  })
  .loose();
export type Discovery = z.infer<typeof DiscoverySchema>;

/**
 * A discovery document checked for the given issuer: the same issuer (OIDC Discovery §4.3, ignoring a
 * trailing slash), secure endpoints, the authorization code flow, signed id_tokens, PKCE S256 when the
 * provider lists its methods. Returns the reason it cannot be used, or the document.
 */
export function checkDiscovery(
  doc: unknown,
  expectedIssuer: string,
): { ok: true; doc: Discovery } | { ok: false; reason: string } {
  const parsed = DiscoverySchema.safeParse(doc);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'document';
    return { ok: false, reason: `The discovery document is missing or has an invalid "${field}".` };
  }
  const d = parsed.data;
  const trim = (s: string) => s.replace(/\/+$/, '');
  if (trim(d.issuer) !== trim(expectedIssuer))
    return { ok: false, reason: `The discovery document names another issuer (${d.issuer.slice(0, 200)}).` };
  for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint'] as const) {
    const value = d[key];
    if (value !== undefined && !isSecureOrLoopback(value))
      return { ok: false, reason: `The provider's ${key} is not an https URL.` };
  }
  if (d.response_types_supported && !d.response_types_supported.includes('code'))
    return { ok: false, reason: 'The provider does not offer the authorization code flow.' };
  if (d.id_token_signing_alg_values_supported.every((alg) => alg === 'none'))
    return { ok: false, reason: 'The provider does not sign its id_tokens.' };
  if (d.code_challenge_methods_supported && !d.code_challenge_methods_supported.includes('S256'))
    return { ok: false, reason: 'The provider does not support PKCE with S256.' };
  return { ok: true, doc: d };
}

/**
 * The account key of a person at the provider: the issuer and the verified `sub`. `sub` is only unique
 * per issuer, so after the admin points single sign-on at another issuer, its subjects can never match
 * (and sign in to) accounts linked under the old one.
 */
export const ssoAccountId = (issuer: string, sub: string) => `${issuer} ${sub}`;
export const ssoAccountPrefix = (issuer: string) => `${issuer} `;

/** The domain of an email address, lower-cased ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** Exact domain match: `example.com` admits `a@example.com`, not `a@sub.example.com` or `a@example.com.evil`. */
export function domainAllowed(email: string, allowed: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domain !== '' && allowed.includes(domain);
}

/** Codes the sign-in page knows (the callback redirects to /sign-in?error=<code>). */
export const SSO_ERROR_CODES = [
  'domain_not_allowed',
  'email_not_verified',
  'account_not_linked',
  'identity_not_usable',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

/**
 * Whether an identity coming from the provider may create an account, be linked or sign in: an email
 * and account id (`sub`) as the provider sent them without U+0000 (NUL), its email in an allowed domain,
 * and verified whenever the provider says (an `email_verified` claim that is present and not true
 * refuses; an absent one is taken as the provider vouching for the address). `profile` is the provider's
 * answer as it came; `email` the one mapped for the user row (which has U+FFFD for NUL: storableText).
 */
export function checkSsoIdentity(
  identity: { email?: unknown; profile?: Record<string, unknown> },
  allowedDomains: readonly string[],
): { error: SsoErrorCode; errorDescription: string } | null {
  // Who someone is, not text from them: a NUL (which a Postgres text column cannot hold) is not replaced,
  // as that could make two identities one; the sign-in is refused on either database.
  const holdsNul = (v: unknown) => typeof v === 'string' && !hasNoNul(v);
  if (holdsNul(identity.profile?.email) || holdsNul(identity.profile?.sub) || holdsNul(identity.email))
    return {
      error: 'identity_not_usable',
      errorDescription: 'The identity provider sent an email address or account id holding NUL (U+0000).',
    };
  const email = typeof identity.email === 'string' ? identity.email : '';
  if (!domainAllowed(email, allowedDomains))
    return {
      error: 'domain_not_allowed',
      errorDescription: `Accounts from ${emailDomain(email) || 'this email domain'} may not sign in here.`,
    };
  const verified = identity.profile?.email_verified;
  if (verified !== undefined && verified !== true && verified !== 'true')
    return {
      error: 'email_not_verified',
      errorDescription: 'The identity provider has not verified this email.',
    };
  return null;
}
