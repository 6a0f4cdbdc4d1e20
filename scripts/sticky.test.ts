import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import {
  belongsElsewhere,
  CONNECTION_MESSAGE,
  headLength,
  mayBeHead,
  ownerOf,
  serveHandedConnections,
  sessionOf,
  sessionOfHead,
} from './sticky.mjs';

// The routing key of `npm start`'s primary (scripts/sticky.mjs): what a request head holds and who owns it.

test('the session is read from the cookie header, plain or with the https prefix, among other cookies', () => {
  assert.equal(sessionOf('a=1; better-auth.session_token=tok.sig; b=2'), 'tok.sig');
  assert.equal(sessionOf('__Secure-better-auth.session_token=sec.sig'), 'sec.sig');
  assert.equal(sessionOf('better-auth.session_data=x; theme=dark'), undefined);
  assert.equal(sessionOf('better-auth.session_token='), undefined);
  assert.equal(sessionOf(undefined), undefined);
  const head = Buffer.from(
    'GET /api/chat HTTP/1.1\r\nHost: x\r\ncookie: a=1\r\nX-Cookie: better-auth.session_token=no\r\nCookie: better-auth.session_token=two.sig\r\n\r\n',
  );
  assert.equal(sessionOfHead(head), 'two.sig');
  assert.equal(sessionOfHead(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')), undefined);
});

test('a head is complete at its blank line; what cannot be an HTTP/1 head is not waited on', () => {
  assert.equal(headLength(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n')), -1);
  assert.equal(headLength(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\nbody')), 27);
  assert.equal(mayBeHead(Buffer.from('POS')), true);
  assert.equal(mayBeHead(Buffer.from('POST /api/chat HTTP/1.1\r\n')), true);
  assert.equal(mayBeHead(Buffer.from([0x16, 0x03, 0x01, 0x02])), false); // a TLS ClientHello
  assert.equal(mayBeHead(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM')), true); // HTTP/2 prior knowledge: a head
  assert.equal(mayBeHead(Buffer.from('get / HTTP/1.1')), false);
});

test('a session has one owner; sessions spread over the workers; only another owner is "elsewhere"', () => {
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < 4000; i++) counts[ownerOf(`session-${i}.${i * 7919}`, 4)]!++;
  for (const n of counts) assert.ok(n > 800 && n < 1200, String(counts));
  const owner = ownerOf('abc.def', 3);
  assert.equal(ownerOf('abc.def', 3), owner);
  assert.equal(belongsElsewhere('better-auth.session_token=abc.def', owner, 3), false);
  assert.equal(belongsElsewhere('better-auth.session_token=abc.def', (owner + 1) % 3, 3), true);
  assert.equal(belongsElsewhere(undefined, 0, 3), false);
  assert.equal(belongsElsewhere('better-auth.session_token=abc.def', 5, 1), false);
});

test('a handed connection gets the bytes the primary read, and a request never finished times out (408)', async () => {
  const server = http.createServer(
    { headersTimeout: 800, requestTimeout: 1000, connectionsCheckingInterval: 100 },
    (req, res) => res.end(`${req.method} ${req.url}`),
  );
  serveHandedConnections(server);
  // Stands in for the primary: hands each accepted socket over with the first bytes it "read".
  const heads: string[] = [
    'GET /from-the-primary HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /slow HTTP/1.1\r\nHost: x\r\n',
  ];
  const front = net
    .createServer((socket) => {
      const message = { type: CONNECTION_MESSAGE, head: Buffer.from(heads.shift()!).toString('base64') };
      (process.emit as (event: string, ...args: unknown[]) => boolean)('message', message, socket);
    })
    .listen(0, '127.0.0.1');
  await once(front, 'listening');
  const { port } = front.address() as net.AddressInfo;
  const first = async () => {
    const c = net.connect(port, '127.0.0.1');
    const [data] = await once(c, 'data');
    c.destroy();
    return String(data);
  };
  assert.match(await first(), /200 OK[\s\S]*GET \/from-the-primary$/);
  // A head that never ends: answered 408 once headersTimeout has passed (never, without a listening server).
  assert.match(await first(), /^HTTP\/1\.1 408/);
  front.close();
  server.close();
  process.removeAllListeners('message');
});
