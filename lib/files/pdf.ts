import 'server-only';
import { extractText, getDocumentProxy } from 'unpdf';

/** The text of a PDF, pages joined by blank lines; throws when the PDF cannot be read (broken, encrypted). */
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js takes ownership of the buffer it is given: a copy keeps the caller's bytes intact.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: false });
  return text
    .map((page) => page.trim())
    .join('\n\n')
    .trim();
}
