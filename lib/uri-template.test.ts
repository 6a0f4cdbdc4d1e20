import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandUriTemplate, parseUriTemplate } from '@/lib/uri-template';

test('a level-1 template names its variables once each, in order', () => {
  assert.deepEqual(parseUriTemplate('notes://{folder}/{name}'), { ok: true, variables: ['folder', 'name'] });
  assert.deepEqual(parseUriTemplate('x://{a}/{b}/{a}'), { ok: true, variables: ['a', 'b'] });
});

test('beyond level 1 is refused with the reason', () => {
  for (const [t, why] of [
    ['file:///{+path}', /operator "\+"/],
    ['search://{?q}', /operator "\?"/],
    ['x://{a,b}', /level 1/],
    ['x://{list*}', /level 1/],
    ['x://{name:3}', /level 1/],
    ['x://{a b}', /not a valid variable name/],
    ['x://{a', /without its "}"/],
    ['x://a}', /without its "{"/],
    ['x://plain', /no variables/],
  ] as const) {
    const parsed = parseUriTemplate(t);
    assert.equal(parsed.ok, false, t);
    assert.match(parsed.ok ? '' : parsed.error, why, t);
  }
});

test('expansion percent-encodes all but unreserved characters, and wants every variable', () => {
  assert.equal(
    expandUriTemplate('notes://{folder}/{name}', { folder: 'work', name: 'plan' }),
    'notes://work/plan',
  );
  assert.equal(
    expandUriTemplate('notes://{folder}/{name}', { folder: 'a/b', name: "x y!'()*é~._-" }),
    'notes://a%2Fb/x%20y%21%27%28%29%2A%C3%A9~._-',
  );
  assert.throws(
    () => expandUriTemplate('notes://{folder}/{name}', { folder: 'work' }),
    /"name" needs a value/,
  );
  assert.throws(() => expandUriTemplate('file:///{+path}', { path: 'a' }), /operator/);
});
