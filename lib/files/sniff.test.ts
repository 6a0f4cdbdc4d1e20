import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanFileName, cutText, formatSize, kindOf, sniffFile } from '@/lib/files/sniff';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const bytes = (s: string) => new TextEncoder().encode(s);

test('images are known by their bytes, whatever the name says', () => {
  assert.deepEqual(sniffFile(PNG, 'photo.png'), { ok: true, kind: 'image', mediaType: 'image/png' });
  assert.deepEqual(sniffFile(JPEG, 'photo.png'), { ok: true, kind: 'image', mediaType: 'image/jpeg' });
  assert.deepEqual(sniffFile(bytes('GIF89a....'), 'a'), { ok: true, kind: 'image', mediaType: 'image/gif' });
  assert.deepEqual(sniffFile(bytes('RIFF\u0001\u0002\u0003\u0004WEBPVP8 '), 'x.webp'), {
    ok: true,
    kind: 'image',
    mediaType: 'image/webp',
  });
  assert.deepEqual(sniffFile(bytes('%PDF-1.7\n...'), 'paper.pdf'), {
    ok: true,
    kind: 'pdf',
    mediaType: 'application/pdf',
  });
});

test('a name that claims an image or PDF the bytes are not is refused', () => {
  const fake = sniffFile(bytes('<script>alert(1)</script>'), 'cat.png');
  assert.equal(fake.ok, false);
  assert.match(!fake.ok ? fake.reason : '', /named \.png but its content is not/);
  assert.equal(sniffFile(bytes('hello'), 'doc.pdf').ok, false);
  assert.equal(sniffFile(bytes('PK text-looking'), 'archive.zip').ok, false);
});

test('binary content that is no image or PDF is refused; UTF-8 text is accepted by extension type', () => {
  const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]);
  assert.equal(sniffFile(zip, 'notes.txt').ok, false);
  assert.equal(sniffFile(Uint8Array.from([0xc3, 0x28, 0x41]), 'bad-utf8.txt').ok, false);
  assert.equal(sniffFile(new Uint8Array(), 'empty.txt').ok, false);
  const type = (name: string, text = 'a,b\n1,2\n') => {
    const s = sniffFile(bytes(text), name);
    return s.ok ? s.mediaType : s.reason;
  };
  assert.equal(type('data.csv'), 'text/csv');
  assert.equal(type('README.md'), 'text/markdown');
  assert.equal(type('x.json', '{"a":1}'), 'application/json');
  assert.equal(type('main.py', 'print("hi") # 你好'), 'text/plain');
  // Markup is text too, but never anything a browser would render: it is stored (and served) as text/plain.
  assert.equal(type('page.html', '<html><script>alert(1)</script></html>'), 'text/plain');
  assert.equal(type('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'), 'text/plain');
});

test('kindOf maps stored media types to what the model gets', () => {
  assert.equal(kindOf('image/webp'), 'image');
  assert.equal(kindOf('application/pdf'), 'pdf');
  assert.equal(kindOf('application/json'), 'text');
  assert.equal(kindOf('text/plain'), 'text');
});

test('extractions over the limit are cut with a note saying how much', () => {
  assert.deepEqual(cutText('short', 10), { text: 'short', cut: false });
  const long = 'x'.repeat(25);
  const { text, cut } = cutText(long, 10);
  assert.equal(cut, true);
  assert.ok(text.startsWith('x'.repeat(10)));
  assert.ok(!text.startsWith('x'.repeat(11)));
  assert.match(text, /cut: the file has 25 characters; only the first 10 are included/);
});

test('sizes read like people write them', () => {
  assert.equal(formatSize(512), '512 B');
  assert.equal(formatSize(3.4 * 1024), '3.4 KB');
  assert.equal(formatSize(21 * 1024 * 1024), '21 MB');
});

test('a file name loses its path, control characters and bidirectional overrides; a long one keeps its extension', () => {
  assert.equal(cleanFileName('../../etc/passwd.txt'), 'passwd.txt');
  assert.equal(cleanFileName('a\u0001b\u0085c\u009b"d.txt'), 'abcd.txt');
  assert.equal(cleanFileName('report\u202Egnp.txt'), 'reportgnp.txt');
  assert.equal(cleanFileName('\u2067x\u2069\u200f.md'), 'x.md');
  assert.equal(cleanFileName(`${'n'.repeat(250)}.csv`), `${'n'.repeat(196)}.csv`);
  assert.equal(cleanFileName(`${'n'.repeat(250)}.${'e'.repeat(20)}`).length, 200);
  assert.equal(cleanFileName('\u202E'), 'file');
});
