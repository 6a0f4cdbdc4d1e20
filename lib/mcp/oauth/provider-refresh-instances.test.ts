import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { MemoryStore } from '@/lib/mcp/oauth';
import { as, begin, issueTokens, newProvider, startFakeAuthServer } from '@/lib/mcp/oauth/test-auth-server';
import { redisLock } from '@/lib/shared/redis-lock';
import { startRedisForFile } from '@/lib/shared/test-redis';

// One user's tokens for one server, refreshed by two app instances at once (two devices behind the
// sticky balancer, or two workers of one box): each instance has its own single-flight refresh, the
// stored tokens and Redis are shared. The authorization server here rotates refresh tokens and, as
// OAuth 2.1 recommends, treats a used one presented again as stolen: it revokes what it issued from it.

startFakeAuthServer();
const redis = startRedisForFile();

/** Refresh tokens used so far; a second use is refused and revokes the tokens issued from the first. */
function rotatingServer() {
  const used = new Map<string, string>();
  let issued = 0;
  as.onToken = async (body, res: ServerResponse) => {
    const presented = body.get('refresh_token') ?? '';
    const issuedFrom = used.get(presented);
    if (issuedFrom !== undefined) {
      as.valid.delete(issuedFrom);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'refresh token reused' }));
      return;
    }
    await new Promise((r) => setTimeout(r, 50)); // a real round trip: the other instance catches up
    const access = `access-${++issued}`;
    used.set(presented, access);
    issueTokens(access, `refresh-${issued}`)(body, res);
  };
}

/** Signed in once (tokens expiring in 30 s, under the 60 s refresh skew); the store is the shared database. */
async function signedInStore(): Promise<MemoryStore> {
  const store = new MemoryStore();
  as.onToken = issueTokens('old-access', 'old-refresh', 30);
  const provider = newProvider(store);
  await provider.finishAuthorization('c', (await begin(provider)).searchParams.get('state')!);
  as.tokenRequests = [];
  return store;
}

/**
 * One app instance's provider for the user and server: its own single-flight key (its own process),
 * the shared store, and with `locked` the app's Redis lock (on this instance's own connections) named
 * by the user and server, as every instance names it.
 */
function instance(store: MemoryStore, name: string, locked: boolean) {
  const lock = redisLock(redis.connections(), 'oauth-refresh');
  return newProvider(store, `alice\nremote#${name}`, {
    ...(locked && { sharedLock: (_key, fn) => lock('alice\nremote', fn) }),
  });
}

describe('token refresh across instances', () => {
  test('two instances refreshing at once with the shared lock: one refresh, both get the new token, the user stays signed in', async () => {
    const store = await signedInStore();
    rotatingServer();
    const [a, b] = [instance(store, 'a', true), instance(store, 'b', true)];
    const tokens = await Promise.all([a.tokens(), b.tokens(), a.tokens(), b.tokens()]);
    assert.equal(as.refreshCount(), 1, 'the refresh token is presented once');
    for (const t of tokens) assert.equal(t?.access_token, 'access-1');
    assert.ok(as.valid.has('access-1'), 'nothing was revoked');
    assert.equal(await a.hasTokens(), true);
  });

  test('a refresh refused because another instance used the token first keeps that instance’s new tokens', async () => {
    const store = await signedInStore();
    // Instance B refreshes while A's request is at the server; the server then refuses A's (used) token.
    let held!: ServerResponse;
    const aArrived = new Promise<void>((resolve) => {
      as.onToken = (_body, res) => {
        held = res;
        resolve();
      };
    });
    const a = instance(store, 'a', false);
    const fromA = a.tokens();
    await aArrived;
    as.onToken = issueTokens('from-b', 'refresh-b');
    assert.equal((await instance(store, 'b', false).tokens())?.access_token, 'from-b');
    held.writeHead(400, { 'content-type': 'application/json' });
    held.end(JSON.stringify({ error: 'invalid_grant' }));
    assert.equal((await fromA)?.access_token, 'from-b');
    assert.equal(await a.hasTokens(), true, 'the tokens B stored are not dropped');
  });
});
