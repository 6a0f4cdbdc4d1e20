import 'server-only';
import type { McpServerRecord } from '@/db/queries/mcp-servers';
import { unreadableMessage } from '@/db/sealing';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { listPrompts, listResources, type PromptInfo, type ResourceInfo } from '@/lib/mcp/context-requests';
import { classifyError } from '@/lib/mcp/errors';
import type { McpServerConfig } from '@/lib/schemas/mcp';

export type TestResult = {
  ok: boolean;
  latencyMs: number;
  tools: Array<{ name: string; description?: string }>;
  resources: ResourceInfo[];
  prompts: PromptInfo[];
  error?: string;
  stderr: string[];
};

/** A saved server whose stored secrets cannot be decrypted is not run: the test fails and says why. */
export function testSavedServer(record: McpServerRecord): Promise<TestResult> {
  if (!record.unreadable.length) return testServerConfig(record.config);
  return Promise.resolve({
    ok: false,
    latencyMs: 0,
    tools: [],
    resources: [],
    prompts: [],
    error: `auth: ${unreadableMessage(record.unreadable)}`,
    stderr: [],
  });
}

/** "Test connection": a fresh, separate connection (the pool is untouched), listed and closed again. */
export async function testServerConfig(config: McpServerConfig): Promise<TestResult> {
  const connection = new McpConnection(
    { ...config, enabled: true },
    { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 15_000, idleMs: 60_000 },
  );
  const started = performance.now();
  try {
    const tools = await connection.listTools();
    const latencyMs = Math.round(performance.now() - started);
    const [resources, prompts] = await Promise.all([
      connection.request(listResources).catch(() => []),
      connection.request(listPrompts).catch(() => []),
    ]);
    return {
      ok: true,
      latencyMs,
      tools: tools.map((t) => ({ name: t.name, description: t.description })),
      resources,
      prompts,
      stderr: connection.stderr.tail(),
    };
  } catch (err) {
    const failure = classifyError(err);
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      tools: [],
      resources: [],
      prompts: [],
      error: `${failure.kind}: ${failure.message}`,
      stderr: connection.stderr.tail(),
    };
  } finally {
    await connection.close();
  }
}
