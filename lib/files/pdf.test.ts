import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractPdfText } from '@/lib/files/pdf';
import { minimalPdf } from '@/lib/files/test-pdf';

test('the text of a PDF is extracted page by page', async () => {
  const text = await extractPdfText(minimalPdf(['Quarterly revenue grew', 'Second page here']));
  assert.match(text, /Quarterly revenue grew/);
  assert.match(text, /Second page here/);
});

test('a broken PDF is an error, not empty text', async () => {
  await assert.rejects(extractPdfText(new TextEncoder().encode('%PDF-1.4\nnot really a pdf')));
});
