import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { clientAddress, SOCKET_ADDRESS_HEADER, stampSocketAddresses } from '@/lib/net/client-address';

test('A7: without a trusted proxy the socket address counts and X-Forwarded-For is ignored', () => {
  const headers = new Headers({ [SOCKET_ADDRESS_HEADER]: '192.0.2.5', 'x-forwarded-for': '203.0.113.1' });
  assert.equal(clientAddress(headers, false), '192.0.2.5');
  assert.equal(clientAddress(headers, true), '203.0.113.1', 'TRUST_PROXY=1: the entry our proxy added');
  assert.equal(
    clientAddress(
      new Headers({ [SOCKET_ADDRESS_HEADER]: '192.0.2.5', 'x-forwarded-for': '10.0.0.1, 198.51.100.2' }),
      true,
    ),
    '198.51.100.2',
  );
  assert.equal(clientAddress(new Headers(), false), 'unknown');
});

test('A7: the HTTP server stamps the socket address over any value the client sent', async () => {
  stampSocketAddresses();
  stampSocketAddresses(); // idempotent
  const server = http.createServer((req, res) => res.end(String(req.headers[SOCKET_ADDRESS_HEADER])));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { [SOCKET_ADDRESS_HEADER]: '203.0.113.66', 'x-forwarded-for': '203.0.113.66' },
    });
    assert.equal(await res.text(), '127.0.0.1');
  } finally {
    server.close();
  }
});
