import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach } from 'node:test';
import {
  createOAuthProvider,
  type McpOAuthProvider,
  MemoryStore,
  type OAuthProviderOptions,
} from '@/lib/mcp/oauth';

/**
 * For the McpOAuthProvider tests (provider-*.test.ts): a fake protected resource with its
 * authorization server on a local port, started around the test file, and providers for it.
 */

export const CLIENT_ID = 'pre-registered-client';
export const CLIENT_SECRET = 'client-secret-Zq9!x/+=';

export type TokenHandler = (body: URLSearchParams, res: ServerResponse) => void | Promise<void>;

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

export const as = new FakeAuthServer();

/** Starts the server for the calling test file and resets it before each test. */
export function startFakeAuthServer(): void {
  before(() => as.start());
  after(() => as.stop());
  beforeEach(() => {
    as.tokenRequests = [];
    as.mcpRequests = [];
    as.valid.clear();
    as.onToken = () => {};
  });
}

let lockCounter = 0;
export function newProvider(
  store = new MemoryStore(),
  lockKey = `user-${++lockCounter}\nserver`,
  more: Partial<OAuthProviderOptions> = {},
): McpOAuthProvider {
  return createOAuthProvider({
    serverUrl: as.mcpUrl,
    store,
    clientStore: new MemoryStore(),
    lockKey,
    redirectUrl: 'http://localhost:3000/api/mcp/oauth/callback',
    config: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    ...more,
  });
}

export async function begin(provider: McpOAuthProvider): Promise<URL> {
  const started = await provider.beginAuthorization();
  assert.ok('url' in started, 'an authorization URL');
  const url = new URL(started.url);
  assert.equal(url.searchParams.get('state'), started.state);
  return url;
}

export function issueTokens(access: string, refresh?: string, expiresIn = 3600): TokenHandler {
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
