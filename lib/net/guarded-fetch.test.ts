import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { BlockedAddressError, BlockedRedirectError, guardedFetch } from './guarded-fetch';

type Seen = { method: string; url: string; key: string | undefined };
const seen: Record<'a' | 'b', Seen[]> = { a: [], b: [] };
let a: http.Server;
let b: http.Server;
let aUrl = '';
let bUrl = '';

function server(name: 'a' | 'b', handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  return http.createServer((req, res) => {
    seen[name].push({
      method: req.method ?? '',
      url: req.url ?? '',
      key: req.headers['x-api-key'] as string | undefined,
    });
    req.resume();
    handle(req, res);
  });
}
const listen = (s: http.Server) =>
  new Promise<string>((r) =>
    s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );

before(async () => {
  b = server('b', (_req, res) => res.end('b answered'));
  bUrl = await listen(b);
  a = server('a', (req, res) => {
    const to: Record<string, [number, string]> = {
      '/same': [307, '/final'],
      '/see-other': [303, '/final'],
      '/elsewhere': [307, `${bUrl}/steal`],
      '/metadata': [301, 'http://169.254.169.254/latest/meta-data/'],
      '/loop': [302, '/loop'],
    };
    const hop = to[req.url ?? ''];
    if (hop) {
      res.writeHead(hop[0], { location: hop[1] }).end();
      return;
    }
    res.end(`a answered ${req.method}`);
  });
  aUrl = await listen(a);
});
after(() => {
  a.close();
  b.close();
});

const post = (f: typeof fetch, path: string) =>
  f(`${aUrl}${path}`, { method: 'POST', headers: { 'x-api-key': 'key-for-a' }, body: '{}' });

test('S10: a redirect within the same origin is followed with its headers (303 turns POST into GET)', async () => {
  const f = guardedFetch(true);
  assert.equal(await (await post(f, '/same')).text(), 'a answered POST');
  assert.equal(await (await post(f, '/see-other')).text(), 'a answered GET');
  assert.ok(seen.a.every((r) => r.key === 'key-for-a'));
});

test('S10: a redirect to another origin or a private address is refused: nothing, and no header, reaches it', async () => {
  const f = guardedFetch(true);
  await assert.rejects(post(f, '/elsewhere'), BlockedRedirectError);
  assert.deepEqual(seen.b, [], 'the other origin got no request (and so no API key)');
  await assert.rejects(
    post(f, '/metadata'),
    (err: unknown) => err instanceof BlockedAddressError && /169\.254\.169\.254/.test((err as Error).message),
  );
  await assert.rejects(post(f, '/loop'), /more than 5 redirects/);
});
