import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { safeEqual } from '@/lib/mcp/oauth/compare';
import { DEFAULT_PENDING_TTL_MS, OAuthFlowError } from '@/lib/mcp/oauth/options';
import type { ProviderRecords } from '@/lib/mcp/oauth/records';
import { redactedMessage } from '@/lib/mcp/oauth/redact';

/**
 * The interactive authorization McpOAuthProvider runs for the app: beginAuthorization (the URL for
 * the browser, with its state) and finishAuthorization (the callback's code for tokens). Each step
 * runs the SDK's auth() with a provider of its own, made in the step's mode.
 */

export type FlowMode =
  /** Used by the transport: never persists a started authorization (only beginAuthorization does). */
  | { kind: 'background' }
  /** beginAuthorization: hides stored tokens so the SDK starts a fresh authorization. */
  | { kind: 'begin' }
  /** finishAuthorization: holds the PKCE verifier the pending record carried, for one use. */
  | { kind: 'finish'; verifier: string };

/** A provider for one step; after auth() it tells the authorization it started, if any. */
type FlowProvider = OAuthClientProvider & { startedAuthorization(): { url: URL; state: string } | undefined };

export type AuthorizationContext = {
  records: ProviderRecords;
  serverUrl: URL;
  fetchFn: FetchLike;
  pendingTtlMs: number | undefined;
  flow: (mode: FlowMode) => FlowProvider;
};

function urlOrUndefined(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Starts an authorization the user asked for (POST …/authorize): discovery from the last challenge
 * (scope, resource_metadata), client identity, PKCE, state, resource. Returns the URL for the browser
 * and its state; with a non-interactive grant the tokens are fetched at once instead.
 */
export async function beginAuthorization(
  ctx: AuthorizationContext,
): Promise<{ url: string; state: string } | { authorized: true }> {
  const challenge = await ctx.records.readChallenge();
  // Discovery is redone: the server's last answer, not an old cache, names the authorization server.
  await ctx.records.invalidate('discovery');
  const flow = ctx.flow({ kind: 'begin' });
  try {
    const result = await auth(flow, {
      serverUrl: ctx.serverUrl,
      scope: challenge?.scope,
      resourceMetadataUrl: urlOrUndefined(challenge?.resourceMetadataUrl),
      fetchFn: ctx.fetchFn,
    });
    if (result === 'AUTHORIZED') return { authorized: true };
  } catch (err) {
    throw new OAuthFlowError(
      'failed',
      `Could not start authorization: ${redactedMessage(err, await ctx.records.secrets())}`,
    );
  }
  const started = flow.startedAuthorization();
  if (!started)
    throw new OAuthFlowError('failed', 'Could not start authorization: no authorization URL was made.');
  return { url: started.url.href, state: started.state };
}

/**
 * Finishes with the callback's `code` and `state`: the state must match one of the pending
 * authorizations (else nothing changes; two tabs may each have started one); that record (and its
 * PKCE verifier) is consumed either way after that, and the code is exchanged for tokens.
 */
export async function finishAuthorization(
  ctx: AuthorizationContext,
  code: string,
  state: string,
): Promise<void> {
  const { records } = ctx;
  // Found and dropped in one step: of a callback replayed twice at once only one exchanges the code (a
  // second exchange is refused, and the SDK then drops the tokens the first one just stored).
  const pending = await records.takePending((p) => safeEqual(p.state, state));
  if (pending === 'none')
    throw new OAuthFlowError('no-pending', 'No authorization is in progress for this server.');
  // A wrong state (a forged or stale callback) leaves the user's pending authorizations in place.
  if (pending === 'mismatch')
    throw new OAuthFlowError('state-mismatch', 'The authorization response does not match the request.');
  if (Date.now() - pending.createdAt > (ctx.pendingTtlMs ?? DEFAULT_PENDING_TTL_MS))
    throw new OAuthFlowError('expired', 'The authorization took too long; start it again.');
  const flow = ctx.flow({ kind: 'finish', verifier: pending.verifier });
  try {
    const result = await auth(flow, {
      serverUrl: ctx.serverUrl,
      authorizationCode: code,
      fetchFn: ctx.fetchFn,
    });
    if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
  } catch (err) {
    const secrets = [code, pending.verifier, ...(await records.secrets())];
    throw new OAuthFlowError('failed', `Authorization failed: ${redactedMessage(err, secrets)}`);
  }
  await records.dropChallenge();
}
