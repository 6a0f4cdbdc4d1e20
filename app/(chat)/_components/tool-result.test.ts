import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileNameOf, resultBlocks, safeHref, structuredOf } from './tool-result';

test('links only for http(s); other schemes stay text', () => {
  assert.equal(safeHref('https://example.com/a b'), 'https://example.com/a%20b');
  for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'not a url'])
    assert.equal(safeHref(bad), null, bad);
});

test('download names come from the URI, without paths or control characters', () => {
  assert.equal(fileNameOf('file:///docs/report%202024.pdf?x=1'), 'report 2024.pdf');
  assert.equal(fileNameOf('mem://a/..%2F..%2Fetc'), '.._.._etc');
  assert.equal(fileNameOf('mem://x/'), 'x');
  assert.equal(fileNameOf('urn:%00'), 'urn__');
  assert.equal(fileNameOf('a/..'), 'download');
});

const WORDS = {
  imageAlt: 'Image from the tool',
  unshown: (kind: string) => `[${kind} content that cannot be shown]`,
};

test('each kind becomes a block; the audience decides what the user sees', () => {
  const blocks = resultBlocks(
    {
      content: [
        { type: 'text', text: 'USER', annotations: { audience: ['user'] } },
        { type: 'text', text: 'MODEL', annotations: { audience: ['assistant'] } },
        { type: 'image', data: 'iVBO"><x', mimeType: 'image/png' },
        { type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
        { type: 'resource_link', uri: 'javascript:alert(1)', name: 'evil' },
        { type: 'resource', resource: { uri: 'mem://notes.txt', text: 'NOTES' } },
        {
          type: 'resource',
          resource: { uri: 'mem://r/data.pdf', mimeType: 'text/html;x=<', blob: 'JVBERg==' },
        },
      ],
    },
    WORDS,
  );
  assert.deepEqual(blocks, [
    { kind: 'text', text: 'USER' },
    { kind: 'image', src: 'data:image/png;base64,iVBOx', alt: 'Image from the tool' },
    { kind: 'text', text: '[image content that cannot be shown]' },
    { kind: 'audio', src: 'data:audio/wav;base64,UklGRg==', mimeType: 'audio/wav' },
    {
      kind: 'link',
      uri: 'https://example.com/doc',
      name: 'doc',
      description: undefined,
      href: 'https://example.com/doc',
    },
    { kind: 'link', uri: 'javascript:alert(1)', name: 'evil', description: undefined, href: null },
    { kind: 'resource-text', uri: 'mem://notes.txt', name: 'notes.txt', mimeType: undefined, text: 'NOTES' },
    {
      kind: 'resource-blob',
      uri: 'mem://r/data.pdf',
      name: 'data.pdf',
      mimeType: 'application/octet-stream',
      href: 'data:application/octet-stream;base64,JVBERg==',
      bytes: 4,
    },
  ]);
});

test('structuredContent is read only when it is an object', () => {
  assert.deepEqual(structuredOf({ content: [], structuredContent: { rows: [] } }), { rows: [] });
  assert.equal(structuredOf({ content: [], structuredContent: [1] }), null);
  assert.equal(structuredOf({ content: [] }), null);
});
