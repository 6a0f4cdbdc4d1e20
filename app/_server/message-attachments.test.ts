import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attachmentsForModel } from '@/app/_server/message-attachments';
import { PNG, startUploadsForFile, upload } from '@/app/_server/test-uploads';
import { MAX_EXTRACT_CHARS } from '@/lib/files/sniff';
import { minimalPdf } from '@/lib/files/test-pdf';
import type { ChatMessage } from '@/lib/schemas/chat';
import { resetProcessState } from '@/lib/process-state';

// Attachments as the model gets them, read from a real data folder and database.

startUploadsForFile();

test('the model gets images as image parts (or, without vision, a note) and files as text, cut when long', async () => {
  process.env.MAX_UPLOAD_MB = '1';
  resetProcessState();
  try {
    const image = await upload('alice', PNG, 'chart.png');
    const long = await upload('alice', 'y'.repeat(MAX_EXTRACT_CHARS + 500), 'long.txt');
    const pdf = await upload('alice', minimalPdf(['Board minutes']), 'minutes.pdf');
    const bobs = await upload('bob', 'bob only', 'bob.txt');
    const part = (f: { url: string; mediaType: string; name: string }) => ({
      type: 'file' as const,
      url: f.url,
      mediaType: f.mediaType,
      filename: f.name,
    });
    const history: ChatMessage[] = [
      {
        id: 'u1',
        role: 'user',
        parts: [{ type: 'text', text: 'look' }, part(image), part(long), part(pdf), part(bobs)],
      },
    ];
    const seen = await attachmentsForModel('alice', history, true);
    const [text, img, longText, pdfText, foreign] = seen.history[0]?.parts ?? [];
    assert.deepEqual(text, { type: 'text', text: 'look' });
    assert.equal(img?.type, 'file');
    assert.equal(
      img?.type === 'file' && img.url,
      `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`,
    );
    assert.ok(longText?.type === 'text');
    assert.match(longText.text, /^<attachment name="long.txt" type="text\/plain">/);
    assert.match(longText.text, /cut: the file has 50500 characters; only the first 50000 are included/);
    assert.ok(pdfText?.type === 'text' && /Board minutes/.test(pdfText.text));
    assert.deepEqual(foreign, { type: 'text', text: '[Attachment "bob.txt": no longer available.]' });
    assert.deepEqual(seen.withheld, []);
    // The stored history is not changed.
    assert.equal(history[0]?.parts[1]?.type, 'file');

    const blind = await attachmentsForModel('alice', history, false);
    assert.deepEqual(blind.history[0]?.parts[1], {
      type: 'text',
      text: '[Image "chart.png" attached by the user: this model cannot view images, so it was not sent.]',
    });
    assert.deepEqual(blind.withheld, ['chart.png']);
  } finally {
    process.env.MAX_UPLOAD_MB = '0.01';
    resetProcessState();
  }
});
