import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  createOAuthProvider,
  MemoryStore,
  type McpOAuthProvider,
  OAuthFlowError,
  redactedMessage,
} from '@/lib/mcp/oauth';

const CLIENT_ID = 'pre-registered-client';
const CLIENT_SECRET = 'client-secret-Zq9!x/+=';

type TokenHandler = (body: URLSearchParams, res: ServerResponse) => void | Promise<void>;

/** A protected resource and its authorization server on one local port, counting token requests. */
class FakeAuthServer {
  server!: Server;
  base = '';
  tokenRequests: URLSearchParams[] = [];
  onToken: TokenHandler = () => {};
  /** Access tokens /mcp accepts. */
  valid = new Set<string>();
  mcpRequests: string[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      res.on('finish', () => {
        for (const check of [...this.answered]) check();
      });
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get mcpUrl(): string {
    return `${this.base}/mcp`;
  }

  /** Resolves once `condition` holds, checked after every request this server has answered. */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.answered.delete(check);
        resolve();
      };
      this.answered.add(check);
      check();
    });
  }

  private answered = new Set<() => void>();

  refreshCount(): number {
    return this.tokenRequests.filter((b) => b.get('grant_type') === 'refresh_token').length;
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
      return this.json(res, 200, { resource: this.mcpUrl, authorization_servers: [this.base] });
    if (url.pathname === '/.well-known/oauth-authorization-server')
      return this.json(res, 200, {
        issuer: this.base,
        authorization_endpoint: `${this.base}/authorize`,
        token_endpoint: `${this.base}/token`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      });
    if (url.pathname === '/token' && req.method === 'POST') {
      const body = new URLSearchParams(raw);
      this.tokenRequests.push(body);
      return this.onToken(body, res);
    }
    if (url.pathname === '/mcp') {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      this.mcpRequests.push(token);
      if (this.valid.has(token)) return this.json(res, 200, { ok: true });
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${this.base}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`,
      });
      res.end();
      return;
    }
    res.writeHead(404).end();
  }
}

const as = new FakeAuthServer();
before(() => as.start());
after(() => as.stop());
beforeEach(() => {
  as.tokenRequests = [];
  as.mcpRequests = [];
  as.valid.clear();
  as.onToken = () => {};
});

let lockCounter = 0;
function newProvider(store = new MemoryStore(), lockKey = `user-${++lockCounter}\nserver`): McpOAuthProvider {
  return createOAuthProvider({
    serverUrl: as.mcpUrl,
    store,
    clientStore: new MemoryStore(),
    lockKey,
    redirectUrl: 'http://localhost:3000/api/mcp/oauth/callback',
    config: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
  });
}

async function begin(provider: McpOAuthProvider): Promise<URL> {
  const started = await provider.beginAuthorization();
  assert.ok('url' in started, 'an authorization URL');
  const url = new URL(started.url);
  assert.equal(url.searchParams.get('state'), started.state);
  return url;
}

function issueTokens(access: string, refresh?: string, expiresIn = 3600): TokenHandler {
  return (_body, res) => {
    as.valid.add(access);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        access_token: access,
        token_type: 'Bearer',
        expires_in: expiresIn,
        ...(refresh && { refresh_token: refresh }),
      }),
    );
  };
}

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
    const stored = JSON.parse(store.values.get('pending')!) as { verifier: string };
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

describe('secrets stay out of errors', () => {
  test('a token endpoint that echoes the request does not leak code, verifier or client secret', async () => {
    const store = new MemoryStore();
    const provider = newProvider(store);
    const url = await begin(provider);
    const verifier = (JSON.parse(store.values.get('pending')!) as { verifier: string }).verifier;
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
