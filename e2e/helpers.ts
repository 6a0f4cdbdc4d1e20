import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { APIRequestContext, Page } from '@playwright/test';
import { APP_URL, FAKE_MODEL_URL } from '../playwright.config';
import { originHeaders } from './accounts';

export {
  ADMIN,
  type Account,
  ensureUser,
  ensureUsers,
  originHeaders,
  SUITE_CHAT_RATE,
  signIn,
  specUser,
} from './accounts';

/**
 * Sends the model every tool schema, whatever the catalog's size (tool search off), until the returned
 * function restores the admin's bounds as they were: for specs whose model calls tools of several test
 * servers from the first step (32-tool-search.spec.ts tests search itself).
 */
export async function sendAllTools(adminRequest: APIRequestContext): Promise<() => Promise<void>> {
  const before = (await (await adminRequest.get('/api/admin/settings')).json()) as {
    toolSearchMaxTools: number;
    toolSearchMaxTokens: number;
  };
  const set = async (toolSearchMaxTools: number, toolSearchMaxTokens: number) => {
    const res = await adminRequest.patch('/api/admin/settings', {
      data: { toolSearchMaxTools, toolSearchMaxTokens },
      headers: originHeaders(),
    });
    if (!res.ok()) throw new Error(`settings: ${res.status()} ${await res.text()}`);
  };
  await set(10_000, 1_000_000);
  return () => set(before.toolSearchMaxTools, before.toolSearchMaxTokens);
}

export function composer(page: Page) {
  return page.getByRole('textbox', { name: 'Message' });
}

/** Sends a message with Enter, and waits for the URL of the new conversation. */
export async function send(page: Page, text: string): Promise<void> {
  const box = composer(page);
  await box.fill(text);
  await box.press('Enter');
}

/** The text bubbles of the user's messages (without their action buttons). */
export function userTexts(page: Page) {
  return page.locator('[data-role="user"] [data-message-text]');
}

export function assistantMessages(page: Page) {
  return page.locator('[data-role="assistant"]');
}

export function conversationIdFromUrl(page: Page): string {
  const match = /\/c\/([A-Za-z0-9_-]+)/.exec(page.url());
  if (!match?.[1]) throw new Error(`not on a conversation page: ${page.url()}`);
  return match[1];
}

export async function fakeModelRequests(
  request: APIRequestContext,
): Promise<Array<{ body: { messages: unknown[]; tools?: unknown[] } }>> {
  const res = await request.get(`${FAKE_MODEL_URL}/requests`);
  return (await res.json()) as Array<{ body: { messages: unknown[]; tools?: unknown[] } }>;
}

export type PlainResponse = { status: number; headers: Headers; text: () => Promise<string> };

/**
 * An HTTP client whose connections come from another loopback address (127.0.0.2, …), so the server
 * sees a different socket address: how tests tell "another client" apart now that X-Forwarded-For is
 * not trusted without TRUST_PROXY. (node:http, because fetch cannot choose the local address.)
 */
export function fromAddress(localAddress: string) {
  return (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<PlainResponse>((resolve, reject) => {
      const req = httpRequest(
        `${APP_URL}${path}`,
        { method: init.method ?? 'GET', headers: init.headers, localAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
            const body = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers, text: async () => body });
          });
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
}

/** The UI message chunks of a finished `POST /api/chat` stream. */
export function streamChunks(sse: string): Array<{ type: string; [key: string]: unknown }> {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { type: string });
}

/** Chooses an action ("Edit", "Delete", "Disable"…) from an admin table row's "Actions for <name>" menu. */
export async function chooseRowAction(page: Page, name: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/**
 * The files holding the e2e app's database at rest: the SQLite file and its write-ahead log, or, when the
 * suite runs on Postgres (E2E_DATABASE=postgres), every file of the cluster's data folder (its tables and
 * write-ahead log), as a copy of the disk would reveal them. Postgres is made to write everything out first
 * (CHECKPOINT): the suite's cluster commits asynchronously, so a fresh row may still be only in memory.
 */
export async function databaseAtRest(): Promise<{ kind: 'sqlite' | 'postgres'; files: string[] }> {
  const note = 'data/e2e/postgres-data-dir';
  if (existsSync(note)) {
    const { dataDir, url } = JSON.parse(readFileSync(note, 'utf8')) as { dataDir: string; url: string };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CHECKPOINT');
    } finally {
      await client.end();
    }
    const files = readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.startsWith('base/') || f.startsWith('pg_wal/'))
      .map((f) => join(dataDir, f))
      .filter((f) => statSync(f).isFile());
    return { kind: 'postgres', files };
  }
  return {
    kind: 'sqlite',
    files: ['app.db', 'app.db-wal'].map((f) => resolve('data/e2e', f)).filter(existsSync),
  };
}

/** Whether any file of the database at rest contains `text` byte for byte. */
export async function databaseContains(text: string): Promise<boolean> {
  const needle = Buffer.from(text);
  return (await databaseAtRest()).files.some((f) => readFileSync(f).includes(needle));
}

/**
 * Holds the page's scripts from now on, so a page loaded next shows the server's HTML without React (a
 * slow network): what the user does there comes before hydration. Call the result to let them load.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/_next/static/**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Types through Chromium's own input-method path (CDP), as a Chinese or Japanese user does: `compose` shows
 * `text` as the composition (underlined, not yet typed), `key` presses a key the input method takes as
 * Chromium on macOS delivers it to the page (keyCode 229; `isComposing` while a composition is open: Enter
 * picks a candidate, Escape closes them, arrows move among them), `commit` ends the composition with `text`.
 */
export async function inputMethod(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  return {
    compose: (text: string) =>
      cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length }),
    key: async (key: 'Enter' | 'Escape' | 'ArrowDown') => {
      for (const type of ['rawKeyDown', 'keyUp'] as const)
        await cdp.send('Input.dispatchKeyEvent', { type, key, code: key, windowsVirtualKeyCode: 229 });
    },
    commit: (text: string) => cdp.send('Input.insertText', { text }),
  };
}
