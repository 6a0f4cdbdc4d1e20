import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { MemoryStore, OAuthFlowError, redactedMessage } from '@/lib/mcp/oauth';
import { ProviderRecords } from '@/lib/mcp/oauth/records';
import {
  as,
  begin,
  CLIENT_ID,
  CLIENT_SECRET,
  issueTokens,
  newProvider,
  startFakeAuthServer,
} from '@/lib/mcp/oauth/test-auth-server';

startFakeAuthServer();

describe('authorization code flow', () => {
  test('the authorization URL carries PKCE S256, state, resource and the challenge scope', async () => {
    const provider = newProvider();
    // A 401 seen by the transport's fetch is remembered for the next beginAuthorization.
    await provider.wrapFetch(fetch)(as.mcpUrl, {});
    const url = await begin(provider);
    assert.equal(url.origin + url.pathname, `${as.base}/authorize`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(url.searchParams.get('code_challenge'));
    assert.equal(url.searchParams.get('resource'), as.mcpUrl);
    assert.equal(url.searchParams.get('scope'), 'mcp:read');
    assert.equal(url.searchParams.get('client_id'), CLIENT_ID);
  });

  test('a callback with the wrong state is refused and leaves the pending authorization usable', async () => {
    as.onToken = issueTokens('access-1');
    const provider = newProvider();
    const url = await begin(provider);
    await assert.rejects(
      provider.finishAuthorization('the-code', 'forged-state'),
      (err) => err instanceof OAuthFlowError && err.code === 'state-mismatch',
    );
    assert.equal(as.tokenRequests.length, 0, 'no code exchange on a wrong state');
    assert.equal(await provider.hasTokens(), false);
    await provider.finishAuthorization('the-code', url.searchParams.get('state')!);
    assert.equal(await provider.hasTokens(), true);
    assert.equal((await provider.tokens())?.access_token, 'access-1');
  });

  test('the PKCE verifier is stored, matches the challenge, and is used once', async () => {
    as.onToken = issueTokens('access-2');
    const store = new MemoryStore();
    const provider = newProvider(store);
    const url = await begin(provider);
    const [stored] = JSON.parse(store.values.get('pending')!) as Array<{ verifier: string }>;
    assert.ok(stored);
    assert.ok(stored.verifier.length >= 43);
    const state = url.searchParams.get('state')!;

    await provider.finishAuthorization('code-1', state);
    const exchange = as.tokenRequests[0]!;
    assert.equal(exchange.get('grant_type'), 'authorization_code');
    assert.equal(exchange.get('code'), 'code-1');
    assert.equal(exchange.get('code_verifier'), stored.verifier);
    const challenge = createHash('sha256').update(stored.verifier).digest('base64url');
    assert.equal(challenge, url.searchParams.get('code_challenge'));
    assert.equal(exchange.get('resource'), as.mcpUrl);
    assert.equal(store.values.has('pending'), false, 'the verifier is gone after use');

    // A replayed callback finds nothing to finish and never reaches the token endpoint.
    await assert.rejects(
      provider.finishAuthorization('code-1', state),
      (err) => err instanceof OAuthFlowError && err.code === 'no-pending',
    );
    assert.equal(as.tokenRequests.length, 1);
  });

  test('two authorizations started at once (two tabs) each finish with their own state, in either order', async () => {
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      as.onToken = issueTokens('access-tabs');
      const provider = newProvider();
      const states = [await begin(provider), await begin(provider)].map((u) => u.searchParams.get('state')!);
      const [first, second] = order.map((i) => states[i]!);
      await provider.finishAuthorization('code-a', first!);
      assert.equal((await provider.tokens())?.access_token, 'access-tabs');
      // The other tab's sign-in still finishes (with its own verifier), and each state works once.
      await provider.finishAuthorization('code-b', second!);
      await assert.rejects(
        provider.finishAuthorization('code-c', first!),
        (err) => err instanceof OAuthFlowError && err.code === 'no-pending',
      );
    }
  });

  test('two tabs storing their started sign-ins at the same moment both keep theirs', async () => {
    // What each "Connect" stores once its authorization URL is made (the provider's saveCodeVerifier).
    const records = new ProviderRecords({
      store: new MemoryStore(),
      clientStore: new MemoryStore(),
      lockKey: 'user-tabs\nserver',
    });
    const started = (state: string) => ({ state, verifier: `${state}-verifier`, createdAt: Date.now() });
    await Promise.all([records.savePending(started('tab-a')), records.savePending(started('tab-b'))]);
    assert.deepEqual((await records.readPending()).map((p) => p.state).sort(), ['tab-a', 'tab-b']);
  });

  test('a callback replayed twice at once exchanges the code once and keeps the tokens it got', async () => {
    // Like a real authorization server: a code is good for one exchange; the second is invalid_grant.
    const used = new Set<string>();
    as.onToken = (body, res) => {
      const code = body.get('code') ?? '';
      if (used.has(code)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'code already used' }));
        return;
      }
      used.add(code);
      return issueTokens('access-replayed')(body, res);
    };
    const provider = newProvider();
    const state = (await begin(provider)).searchParams.get('state')!;
    const results = await Promise.allSettled([
      provider.finishAuthorization('code-once', state),
      provider.finishAuthorization('code-once', state),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const refused = results.find((r) => r.status === 'rejected');
    assert.ok(refused?.reason instanceof OAuthFlowError && refused.reason.code === 'no-pending');
    assert.equal(as.tokenRequests.length, 1, 'the code is exchanged once');
    assert.equal((await provider.tokens())?.access_token, 'access-replayed');
  });

  test('a background auth() never replaces the authorization the user started', async () => {
    as.onToken = issueTokens('access-3');
    const provider = newProvider();
    const url = await begin(provider);
    // The transport hits a 401 meanwhile and runs the SDK's auth() with this provider (mode background).
    const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
    assert.equal(await auth(provider, { serverUrl: as.mcpUrl }), 'REDIRECT');
    await provider.finishAuthorization('code', url.searchParams.get('state')!);
    assert.equal((await provider.tokens())?.access_token, 'access-3');
  });

  test('forget() drops tokens and the pending authorization', async () => {
    as.onToken = issueTokens('access-4', 'refresh-4');
    const store = new MemoryStore();
    const provider = newProvider(store);
    await provider.finishAuthorization('c', (await begin(provider)).searchParams.get('state')!);
    await begin(provider);
    await provider.forget();
    assert.equal(await provider.hasTokens(), false);
    assert.deepEqual([...store.values.keys()], []);
  });
});

describe('secrets stay out of errors', () => {
  test('a token endpoint that echoes the request does not leak code, verifier or client secret', async () => {
    const store = new MemoryStore();
    const provider = newProvider(store);
    const url = await begin(provider);
    const verifier = (JSON.parse(store.values.get('pending')!) as Array<{ verifier: string }>)[0]!.verifier;
    as.onToken = (body, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`upstream failed for ${body.toString()} secret=${CLIENT_SECRET} verifier=${verifier}`);
    };
    const code = 'authorization-code-7f3a';
    const err = await provider.finishAuthorization(code, url.searchParams.get('state')!).then(
      () => assert.fail('should fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof OAuthFlowError);
    assert.match(err.message, /HTTP 500/);
    for (const secret of [CLIENT_SECRET, encodeURIComponent(CLIENT_SECRET), verifier, code])
      assert.ok(!err.message.includes(secret), `message must not contain ${secret.slice(0, 4)}…`);
    assert.ok(!String(err.stack).includes(CLIENT_SECRET));
  });

  test('redactedMessage removes raw, URL-, form-, base64- and JSON-encoded forms', () => {
    const secret = 'a b+c/d"e';
    const text = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString(),
      Buffer.from(secret).toString('base64'),
      JSON.stringify({ s: secret }),
    ].join(' | ');
    const out = redactedMessage(new Error(text), [secret]);
    assert.ok(!out.includes('b+c') && !out.includes('b%2Bc') && !out.includes('YSBi'), out);
  });
});
