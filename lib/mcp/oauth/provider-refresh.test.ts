import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryStore } from '@/lib/mcp/oauth';
import {
  as,
  begin,
  CLIENT_SECRET,
  issueTokens,
  newProvider,
  startFakeAuthServer,
} from '@/lib/mcp/oauth/test-auth-server';

startFakeAuthServer();

describe('refresh', () => {
  /** Signs in once with tokens that expire in `expiresIn` seconds; counts start afterwards. */
  async function signedIn(expiresIn: number, lockKey?: string, store = new MemoryStore()) {
    as.onToken = issueTokens('old-access', 'old-refresh', expiresIn);
    const provider = newProvider(store, lockKey);
    await provider.finishAuthorization('c', (await begin(provider)).searchParams.get('state')!);
    as.tokenRequests = [];
    return { provider, store };
  }

  /**
   * A token endpoint that holds every refresh until `release()`, so concurrent callers overlap:
   * `arrived` resolves when the first refresh request is in.
   */
  function heldRefresh(access: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    as.onToken = async (body, res) => {
      assert.equal(body.get('refresh_token'), 'old-refresh');
      arrive();
      await released;
      issueTokens(access, 'new-refresh')(body, res);
    };
    return { arrived, release };
  }

  test('10 concurrent token requests near expiry cause exactly one refresh', async () => {
    const { provider } = await signedIn(30); // < 60 s left
    const refresh = heldRefresh('new-access');
    const pending = Promise.all(Array.from({ length: 10 }, () => provider.tokens()));
    // All ten read the store in memory, well before a request reaches the server (it needs I/O).
    await refresh.arrived;
    refresh.release();
    const all = await pending;
    assert.equal(as.refreshCount(), 1);
    for (const t of all) assert.equal(t?.access_token, 'new-access');
    assert.equal(as.tokenRequests[0]?.get('resource'), as.mcpUrl);
    assert.equal(as.tokenRequests[0]?.get('client_secret'), CLIENT_SECRET);
  });

  test('providers built per request for the same (user, server) share the one refresh', async () => {
    const { store } = await signedIn(30, 'alice\nserver-x');
    const refresh = heldRefresh('shared-access');
    const pending = Promise.all(
      Array.from({ length: 10 }, () => newProvider(store, 'alice\nserver-x').tokens()),
    );
    await refresh.arrived;
    refresh.release();
    const all = await pending;
    assert.equal(as.refreshCount(), 1);
    for (const t of all) assert.equal(t?.access_token, 'shared-access');
  });

  test('a token far from expiry is not refreshed', async () => {
    const { provider } = await signedIn(3600);
    await Promise.all(Array.from({ length: 5 }, () => provider.tokens()));
    assert.equal(as.refreshCount(), 0);
  });

  test('10 concurrent requests answered 401 cause one refresh, then each is retried with the new token', async () => {
    const { provider } = await signedIn(3600);
    as.valid.clear(); // the server revoked the access token early
    const refresh = heldRefresh('after-401');
    const wrapped = provider.wrapFetch(fetch);
    const pending = Promise.all(
      Array.from({ length: 10 }, () =>
        wrapped(as.mcpUrl, { headers: { authorization: 'Bearer old-access' } }),
      ),
    );
    // The refresh is answered only after all ten requests were answered 401.
    await refresh.arrived;
    await as.until(() => as.mcpRequests.filter((t) => t === 'old-access').length === 10);
    refresh.release();
    const responses = await pending;
    assert.equal(as.refreshCount(), 1);
    for (const r of responses) assert.equal(r.status, 200);
    assert.equal(as.mcpRequests.filter((t) => t === 'after-401').length, 10);
  });

  test('a refused refresh token drops the tokens so the user is asked to sign in again', async () => {
    const { provider } = await signedIn(30);
    as.onToken = (_body, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_grant' }));
    };
    // The old access token still has 30 s; after that nothing is sent and the server's 401 asks for sign-in.
    assert.equal((await provider.tokens())?.access_token, 'old-access');
    assert.equal(as.refreshCount(), 1);
    assert.equal(await provider.hasTokens(), false);
    assert.equal(await provider.tokens(), undefined);
  });
});
