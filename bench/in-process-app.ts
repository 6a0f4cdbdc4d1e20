/**
 * The app's turn pipeline in this process, for the in-process benchmarks (bench/turn-cpu.ts,
 * bench/profile-before.ts): the fake model in its own process, a fresh migrated SQLite file in a
 * temporary folder, the stdio MCP test servers of the e2e suite, an admin with the chat limits lifted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatPost } from '@/lib/schemas/chat-post';
import { type Child, startFakeModel, stopChild } from './chat-turn-procs';

const ROOT = path.resolve(import.meta.dirname, '..');

export type InProcessApp = {
  /** The model's base URL (…/v1): requests to it are the provider requests. */
  modelUrl: string;
  port: number;
  /** The benchmark's admin, who runs the turns. */
  user: { id: string; name: string; email: string; role: 'admin' };
  /** One turn as POST /api/chat runs it, for the benchmark's admin. */
  startTurn: (body: ChatPost) => Promise<Response>;
  close: () => Promise<void>;
};

export async function startInProcessApp(name: string): Promise<InProcessApp> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const children: Child[] = [];
  const close = async () => {
    for (const c of children.reverse()) await stopChild(c);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const { fake, url } = await startFakeModel(ROOT, env);
    children.push(fake);
    const port = Number(new URL(url).port);
    const modelUrl = `${url}/v1`;
    Object.assign(process.env, {
      DATABASE_PATH: path.join(dir, 'app.db'),
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: 'sk-bench-key',
      CHAT_MODEL: 'fake-model',
      MCP_SERVERS_FILE: 'e2e/fixtures/mcp-servers.e2e.json',
    });
    delete process.env.AUTH_SECRET;

    const { register } = await import('../instrumentation');
    process.env.NEXT_RUNTIME = 'nodejs';
    await register();
    const { getDb } = await import('@/db/client');
    const { user } = await import('@/db/schema');
    const { updateSettings } = await import('@/db/queries/settings');
    const { startChatTurn } = await import('@/app/_server/chat-turn');
    const db = getDb();
    db.insert(user).values({ id: 'bench', name: 'Bench', email: 'bench@example.com', role: 'admin' }).run();
    await updateSettings(db, { chatRequestsPerMinute: 10_000, maxConcurrentTurns: 1000 });
    (await import('@/app/_server/hot-cache')).invalidateSettings();
    const me = { id: 'bench', name: 'Bench', email: 'bench@example.com', role: 'admin' as const };
    return { modelUrl, port, user: me, startTurn: (body) => startChatTurn(me, body), close };
  } catch (err) {
    await close();
    throw err;
  }
}
