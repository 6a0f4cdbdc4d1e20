// Test-driver pieces of the conformance client: what the suite passes in MCP_CONFORMANCE_CONTEXT, the
// grant each extension scenario needs, the user's "sign in" done without a browser, and the SEP-990
// enterprise token exchange at the identity provider.
import { z } from 'zod';
import type { AssertionContext, NonInteractiveGrant } from '@/lib/mcp/oauth';

const ContextSchema = z
  .object({
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    private_key_pem: z.string().optional(),
    signing_algorithm: z.string().optional(),
    idp_client_id: z.string().optional(),
    idp_id_token: z.string().optional(),
    idp_token_endpoint: z.url().optional(),
  })
  .loose();
export type ConformanceContext = z.infer<typeof ContextSchema>;

export function contextFromEnv(): ConformanceContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? ContextSchema.parse(JSON.parse(raw)) : {};
}

/**
 * The non-interactive grant an extension scenario is about; none for the others, which run the
 * authorization code flow (auth/pre-registration passes the same kind of context as
 * auth/client-credentials-basic, so the scenario name tells them apart).
 */
export function grantFor(scenario: string, ctx: ConformanceContext): NonInteractiveGrant | undefined {
  if (ctx.idp_id_token && ctx.idp_token_endpoint) {
    const { idp_id_token: idToken, idp_token_endpoint: endpoint, idp_client_id: idpClientId } = ctx;
    return { type: 'jwt_bearer', assertion: (a) => requestIdJag(endpoint, idToken, idpClientId, a) };
  }
  if (ctx.private_key_pem)
    return {
      type: 'client_credentials',
      privateKey: { pem: ctx.private_key_pem, algorithm: ctx.signing_algorithm ?? 'ES256' },
    };
  if (scenario.startsWith('auth/client-credentials')) return { type: 'client_credentials' };
  return undefined;
}

/**
 * RFC 8693 token exchange at the enterprise IdP (SEP-990): the user's ID token for an identity
 * assertion JWT authorization grant (ID-JAG) for this authorization server and MCP server.
 */
async function requestIdJag(
  endpoint: string,
  idToken: string,
  idpClientId: string | undefined,
  target: AssertionContext,
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
    subject_token: idToken,
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    audience: target.issuer,
    resource: target.resource,
  });
  if (idpClientId) body.set('client_id', idpClientId);
  const res = await fetch(endpoint, { method: 'POST', body });
  if (!res.ok) throw new Error(`IdP token exchange failed: HTTP ${res.status}`);
  const parsed = z.object({ access_token: z.string().min(1) }).parse(await res.json());
  return parsed.access_token;
}

/**
 * What the user's browser does with the authorization URL, without one: the suite's authorization
 * endpoint approves at once and redirects to our redirect URI; the code and state are read from the
 * Location header instead of following it.
 */
export async function signInHeadlessly(url: string): Promise<{ code: string; state: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.body?.cancel();
  const location = res.headers.get('location');
  if (res.status < 300 || res.status >= 400 || !location)
    throw new Error(`The authorization endpoint answered ${res.status} without a redirect`);
  const callback = new URL(location, url);
  const error = callback.searchParams.get('error');
  if (error) throw new Error(`The authorization server refused: ${error}`);
  const code = callback.searchParams.get('code');
  const state = callback.searchParams.get('state');
  if (!code || !state) throw new Error('The redirect carried no code or state');
  return { code, state };
}
