import assert from 'node:assert/strict';
import { test } from 'node:test';
import { remoteImageHost, safeLinkUrl } from '@/lib/safe-url';

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
