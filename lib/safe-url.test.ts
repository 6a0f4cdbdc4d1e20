import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authPagePath, remoteImageHost, safeLinkUrl, safeReturnTo } from '@/lib/safe-url';
import { ReturnToSchema } from '@/lib/schemas/return-to';

test('links: only http(s), mailto and fragments survive', () => {
  assert.equal(safeLinkUrl('https://example.com/a'), 'https://example.com/a');
  assert.equal(safeLinkUrl('mailto:a@b.c'), 'mailto:a@b.c');
  assert.equal(safeLinkUrl('#section'), '#section');
  for (const bad of [
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'data:text/html,<script>',
    'vbscript:x',
    'file:///etc/passwd',
    '/relative',
    '',
  ]) {
    assert.equal(safeLinkUrl(bad), null, bad);
  }
});

test('images: only http(s), and the host is named', () => {
  assert.deepEqual(remoteImageHost('https://attacker.test/p?d=1'), {
    href: 'https://attacker.test/p?d=1',
    host: 'attacker.test',
  });
  assert.equal(remoteImageHost('data:image/png;base64,AAA'), null);
  assert.equal(remoteImageHost('javascript:alert(1)'), null);
});

test('return to: a path of this app survives, with its query and fragment', () => {
  for (const ok of [
    '/',
    '/share/AbC_-123',
    '/c/abc?x=1&next=%2Fy#m-2',
    '/admin/sso',
    `/${'a'.repeat(999)}`,
  ]) {
    assert.equal(safeReturnTo(ok), ok, ok);
    assert.equal(ReturnToSchema.parse(ok), ok, ok);
  }
});

test('return to: other origins, schemes and browser-normalised tricks go home', () => {
  for (const bad of [
    'https://evil.example',
    'HTTPS://evil.example/x',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    ' /share/x',
    '/\t/evil.example',
    '/\n/evil.example',
    '/a\u0000b',
    '/a\u007fb',
    '/a\u0085b',
    '/a b',
    '/a\\..\\..\\/evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2f%2fevil.example',
    '/%5Cevil.example',
    'share/x',
    '',
    `/${'a'.repeat(1000)}`,
  ]) {
    assert.equal(safeReturnTo(bad), '/', JSON.stringify(bad));
    assert.equal(ReturnToSchema.parse(bad), '/', JSON.stringify(bad));
  }
  for (const notText of [undefined, null, 42, ['/share/x', '//evil.example'], { href: '/x' }]) {
    assert.equal(safeReturnTo(notText), '/');
    assert.equal(ReturnToSchema.parse(notText), '/');
  }
});

test('auth pages: `next` is kept only for a path of this app other than home, with the error code', () => {
  assert.equal(authPagePath('/sign-in', '/c/abc?x=1&y=2'), '/sign-in?next=%2Fc%2Fabc%3Fx%3D1%26y%3D2');
  assert.equal(authPagePath('/sign-up', '/share/t', 'invalid'), '/sign-up?error=invalid&next=%2Fshare%2Ft');
  assert.equal(authPagePath('/sign-up', '/', 'forbidden'), '/sign-up?error=forbidden');
  for (const home of ['/', null, undefined, '']) assert.equal(authPagePath('/sign-in', home), '/sign-in');
  for (const bad of [
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
  ]) {
    assert.equal(authPagePath('/sign-in', bad), '/sign-in', JSON.stringify(bad));
    assert.equal(authPagePath('/sign-up', bad, 'rate'), '/sign-up?error=rate', JSON.stringify(bad));
  }
});
