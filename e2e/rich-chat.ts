// Shared by the specs of issue 16's server requests (33, 34): the rich test MCP server's config, and
// chats that call one of its tools — in the browser, or through the API for the tool's text.
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { originHeaders, send, streamChunks } from './helpers';

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');

/** A stdio config of the test MCP server with its rich features on (TEST_MCP_RICH=1). */
export const rich = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  transport: 'stdio',
  command: 'node',
  args: [FIXTURE, 'stdio'],
  env: { TEST_MCP_RICH: '1' },
  timeoutMs: 120_000,
  ...extra,
});

/** The card of the latest call of `tool` on the page. */
export const card = (page: Page, tool: string) =>
  page.locator(`[data-tool-call][data-tool-name="${tool}"]`).last();

/** A new page whose first message is `text`, once the conversation has its URL. */
export async function openChat(ctx: BrowserContext, text: string): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto('/');
  await expect(async () => {
    await send(page, text);
    await expect(page).toHaveURL(/\/c\//, { timeout: 2000 });
  }).toPass();
  return page;
}

/** One tool call through the chat API; the tool's output text (or its error text). */
export async function toolText(
  ctx: BrowserContext,
  server: string,
  tool: string,
  args: object = {},
): Promise<string> {
  const id = `rich-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const res = await ctx.request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [{ type: 'text', text: `[[tool:${server}__${tool}:${JSON.stringify(args)}]]` }],
      },
    },
    headers: originHeaders(),
  });
  const chunks = streamChunks(await res.text());
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output as
    | { content: Array<{ text: string }> }
    | undefined;
  // A tool's error result (isError) reaches the stream as the call's error text.
  const error = chunks.find((c) => c.type === 'tool-output-error')?.errorText as string | undefined;
  return output?.content[0]?.text ?? error ?? '';
}
