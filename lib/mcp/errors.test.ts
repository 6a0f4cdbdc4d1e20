import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isConnectionLost, isSessionExpired } from '@/lib/mcp/errors';

const post = (status: number, body: string) =>
  new StreamableHTTPError(status, `Error POSTing to endpoint: ${body}`);

test('a lost session: 404, or 400 naming the session (as the SDK examples answer); not any other 400', () => {
  assert.ok(isSessionExpired(post(404, '{"error":{"code":-32001,"message":"Session not found"}}')));
  assert.ok(
    isSessionExpired(
      post(400, '{"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}'),
    ),
  );
  assert.ok(!isSessionExpired(post(400, '{"error":{"code":-32700,"message":"Parse error"}}')));
  assert.ok(!isSessionExpired(post(500, 'Session store unavailable')));
  assert.ok(
    isSessionExpired(new Error('Error POSTing to endpoint (HTTP 404): unknown or missing sessionId')),
  );
  assert.ok(!isSessionExpired(new Error('Error POSTing to endpoint (HTTP 400): bad')));
});

test('a lost connection: closed, network failure, 5xx, a lost session; not a server answer', () => {
  assert.ok(isConnectionLost(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')));
  assert.ok(isConnectionLost(new TypeError('fetch failed')));
  assert.ok(isConnectionLost(post(503, 'down')));
  assert.ok(isConnectionLost(post(400, 'Bad Request: No valid session ID provided')));
  assert.ok(isConnectionLost(new Error('Error POSTing to endpoint (HTTP 502): bad gateway')));
  assert.ok(!isConnectionLost(post(400, 'Parse error')));
  assert.ok(!isConnectionLost(new McpError(ErrorCode.InvalidParams, 'bad arguments')));
});
