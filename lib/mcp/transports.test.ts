import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { publicFailure } from '@/lib/mcp/public-failure';
import type { McpServerConfig } from '@/lib/schemas/mcp';

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const children: ChildProcess[] = [];
const connections: McpConnection[] = [];

/** Starts the test server in an HTTP mode and resolves its base URL once it listens. */
function startHttp(mode: 'http' | 'sse-only', extra: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE, mode, '--port', '0', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '' },
  });
  children.push(child);
  return new Promise((resolvePromise, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m?.[1]) resolvePromise(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`test server exited ${code}`)));
  });
}

function connect(
  config: Partial<McpServerConfig> & Pick<McpServerConfig, 'transport'>,
  options: Partial<ConnectionOptions> = {},
): McpConnection {
  const conn = new McpConnection(
    {
      name: 'remote',
      enabled: true,
      timeoutMs: 10_000,
      headers: {},
      allowPrivateNetwork: true,
      ...config,
    } as McpServerConfig,
    {
      ...DEFAULT_CONNECTION_OPTIONS,
      connectTimeoutMs: 5_000,
      ...options,
    },
  );
  connections.push(conn);
  return conn;
}

/** A user's signed-in provider, as the app's setup hands it over (here with tokens already stored). */
const signedIn = (tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>): OAuthClientProvider => ({
  redirectUrl: 'http://app.example/callback',
  clientMetadata: { redirect_uris: ['http://app.example/callback'] },
  clientInformation: () => undefined,
  tokens: async () => tokens,
  saveTokens: () => {},
  redirectToAuthorization: () => {},
  saveCodeVerifier: () => {},
  codeVerifier: () => '',
});

const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? '').join('');

after(async () => {
  await Promise.all(connections.map((c) => c.close()));
  for (const c of children) c.kill('SIGTERM');
});

describe('remote and third-party transports', () => {
  test("a user's OAuth tokens the connection sends are masked in what it logs of the server's errors", async () => {
    const base = await startHttp('http');
    const tokens = { access_token: 'at-7c1f9e2b5d', refresh_token: 'rt-3a8d6f0c4e', token_type: 'Bearer' };
    const provider = signedIn(tokens);
    const conn = connect({ transport: 'http', url: `${base}/mcp` }, { authProvider: provider });
    assert.equal(text(await conn.callTool('add', { a: 1, b: 2 })), '3');
    // A server refusing the token and quoting it: the logged detail and the user's message hold neither.
    const quoted = new Error(`401 invalid_token: ${tokens.access_token} (refresh ${tokens.refresh_token})`);
    const failure = publicFailure('remote', quoted, { secrets: conn.secrets(), log: conn.failures });
    for (const secret of [tokens.access_token, tokens.refresh_token]) {
      assert.equal(failure.detail.includes(secret), false, failure.detail);
      assert.equal(failure.message.includes(secret), false);
    }
  });

  test('Streamable HTTP with custom headers', async () => {
    const base = await startHttp('http', ['--require-header', 'X-Api-Key:sesame']);
    const conn = connect({ transport: 'http', url: `${base}/mcp`, headers: { 'X-Api-Key': 'sesame' } });
    assert.equal(text(await conn.callTool('add', { a: 20, b: 22 })), '42');
    assert.equal(conn.status().status, 'connected');
  });

  test('a missing credential is classified as an auth error', async () => {
    const base = await startHttp('http', ['--require-header', 'X-Api-Key:sesame']);
    const conn = connect({ transport: 'http', url: `${base}/mcp` });
    await assert.rejects(conn.listTools(), (err: Error & { kind?: string }) => err.kind === 'auth');
    assert.equal(conn.status().lastError?.kind, 'auth');
  });

  test('an SSE-only server is reached through the Streamable HTTP config (fallback)', async () => {
    const base = await startHttp('sse-only');
    const conn = connect({ transport: 'http', url: `${base}/sse` });
    assert.equal(text(await conn.callTool('echo', { message: 'via sse' })), 'via sse');
    assert.ok(conn.stderr.tail().some((l) => l.includes('falling back to legacy SSE')));
  });

  test("the fallback to legacy SSE keeps the user's sign-in: its requests carry their token too", async () => {
    const base = await startHttp('sse-only', ['--require-header', 'authorization:Bearer at-sse-only']);
    const tokens = { access_token: 'at-sse-only', token_type: 'Bearer' };
    const provider = signedIn(tokens);
    const conn = connect({ transport: 'http', url: `${base}/sse` }, { authProvider: provider });
    assert.equal(text(await conn.callTool('echo', { message: 'signed in' })), 'signed in');
    assert.ok(conn.stderr.tail().some((l) => l.includes('falling back to legacy SSE')));
  });

  test('legacy SSE configured directly', async () => {
    const base = await startHttp('sse-only');
    const conn = connect({ transport: 'sse', url: `${base}/sse` });
    assert.equal(text(await conn.callTool('add', { a: 1, b: 2 })), '3');
  });

  test('S10: without "private network", loopback, metadata and mapped addresses are refused before connecting', async () => {
    const base = await startHttp('http');
    const port = new URL(base).port;
    for (const url of [
      `http://localhost:${port}/mcp`,
      `http://127.0.0.1:${port}/mcp`,
      `http://2130706433:${port}/mcp`,
      'http://169.254.169.254/mcp',
      'http://[::ffff:a9fe:a9fe]/mcp',
      `http://[::1]:${port}/mcp`,
    ]) {
      const conn = connect({ transport: 'http', url, allowPrivateNetwork: false });
      await assert.rejects(
        conn.listTools(),
        (err: Error) => /private or local address/.test(err.message),
        url,
      );
      assert.equal(conn.status().lastError?.kind, 'connection');
    }
    // The same server is reachable once the admin says it lives on a private network.
    const allowed = connect({
      transport: 'http',
      url: `http://localhost:${port}/mcp`,
      allowPrivateNetwork: true,
    });
    assert.ok((await allowed.listTools()).length > 0);
  });

  test('@modelcontextprotocol/server-everything over stdio, from node_modules', async () => {
    const conn = connect({
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: {},
      cwd: null,
    });
    const tools = await conn.listTools();
    assert.ok(tools.some((t) => t.name === 'echo'));
    assert.match(text(await conn.callTool('echo', { message: 'hi' })), /hi/);
  });
});
