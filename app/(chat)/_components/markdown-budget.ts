/**
 * How much Markdown a page's server render parses. Parsing costs ~5-10 ms per KB of some ordinary shapes
 * (short lists between paragraphs; linear only because long text is parsed in pieces, markdown-blocks.ts),
 * and the server render blocks the one Node process, every user's requests with it: a long answer, reloaded
 * or opened through its share link again and again, would take the server for a second each time. So the
 * server draws as Markdown only the newest answers, up to a budget; the others show their text as
 * written until the browser has taken over the page, which then draws them (no mismatch with the
 * server's HTML). Pure, for the server and the browser alike (markdown-budget.test.ts).
 */

/** An answer longer than this (characters of text) is drawn as Markdown by the browser only. */
export const SERVER_MARKDOWN_PER_MESSAGE = 8_000;
/** The most text (characters) of one page the server draws as Markdown, newest answers first. */
export const SERVER_MARKDOWN_PER_PAGE = 24_000;

type Message = { id: string; role: string; parts: ReadonlyArray<{ type: string; text?: string }> };

/** The ids of the answers (in page order) whose Markdown waits for the browser. */
export function markdownAfterHydration(
  messages: readonly Message[],
  perMessage = SERVER_MARKDOWN_PER_MESSAGE,
  perPage = SERVER_MARKDOWN_PER_PAGE,
): Set<string> {
  const later = new Set<string>();
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role !== 'assistant') continue;
    const length = m.parts.reduce((n, p) => n + (p.type === 'text' ? (p.text?.length ?? 0) : 0), 0);
    if (length > perMessage || used + length > perPage) later.add(m.id);
    else used += length;
  }
  return later;
}
