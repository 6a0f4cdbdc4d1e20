import * as z from '@/lib/zod';
import { nestsDeeperThan } from '@/lib/json-depth';
import { missingSecretsMessage, unmaskSecrets } from '@/lib/mcp/mask';
import { type McpServerConfig, McpServerConfigSchema } from '@/lib/schemas/mcp';

/** A Claude Desktop file is 4 or 5 levels deep; far deeper is an attack on whatever walks it next. */
export const MAX_IMPORT_DEPTH = 32;

/** Any JSON, refused when nested deeper than MAX_IMPORT_DEPTH. */
export const ImportJsonSchema = z
  .unknown()
  .refine(
    (v) => !nestsDeeperThan(v, MAX_IMPORT_DEPTH),
    `JSON is nested deeper than ${MAX_IMPORT_DEPTH} levels`,
  );

/** One entry of a Claude Desktop `{"mcpServers": {…}}` file: a command, or a URL. */
const EntrySchema = z
  .object({
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().nullable().optional(),
    url: z.string().optional(),
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
    transport: z.string().optional(),
    builtin: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    allowPrivateNetwork: z.boolean().optional(),
    disabled: z.boolean().optional(),
    enabled: z.boolean().optional(),
    timeoutMs: z.number().optional(),
    timeout: z.number().optional(),
    scope: z.unknown().optional(),
    allow: z.unknown().optional(),
    userValues: z.unknown().optional(),
    oauth: z.unknown().optional(),
    roots: z.unknown().optional(),
    sampling: z.unknown().optional(),
    logLevel: z.unknown().optional(),
  })
  .loose();

export const ClaudeDesktopFileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).loose();

export type ImportResult = { configs: McpServerConfig[]; errors: Array<{ name: string; message: string }> };

function toConfig(name: string, raw: unknown): McpServerConfig {
  const entry = EntrySchema.parse(raw);
  const enabled = entry.enabled ?? !entry.disabled;
  const timeoutMs = entry.timeoutMs ?? entry.timeout;
  // Who may use it, whose connection it is and what it may ask of the host: as the file says, else
  // the defaults (per user, everyone, sampling asked, no roots).
  const access = Object.fromEntries(
    (['scope', 'allow', 'userValues', 'roots', 'sampling', 'logLevel'] as const)
      .filter((k) => entry[k] !== undefined)
      .map((k) => [k, entry[k]]),
  );
  const common = { name, enabled, ...(timeoutMs ? { timeoutMs } : {}), ...access };
  if (entry.transport === 'builtin')
    return McpServerConfigSchema.parse({ ...common, transport: 'builtin', builtin: entry.builtin ?? name });
  if (entry.url) {
    const transport = entry.type === 'sse' || entry.transport === 'sse' ? 'sse' : 'http';
    return McpServerConfigSchema.parse({
      ...common,
      transport,
      url: entry.url,
      headers: entry.headers ?? {},
      allowPrivateNetwork: entry.allowPrivateNetwork ?? false,
      ...(entry.oauth !== undefined ? { oauth: entry.oauth } : {}),
    });
  }
  if (!entry.command) throw new Error('needs "command" (stdio) or "url" (http/sse)');
  return McpServerConfigSchema.parse({
    ...common,
    transport: 'stdio',
    command: entry.command,
    args: entry.args ?? [],
    env: entry.env ?? {},
    cwd: entry.cwd ?? null,
  });
}

function explain(err: unknown): string {
  if (err instanceof z.ZodError)
    return err.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ');
  return err instanceof Error ? err.message : String(err);
}

/** Parses a Claude Desktop style config; every bad entry is named with its problem, good ones still import. */
export function parseClaudeDesktopConfig(json: unknown): ImportResult {
  const file = ClaudeDesktopFileSchema.safeParse(json);
  if (!file.success)
    return {
      configs: [],
      errors: [{ name: '(file)', message: 'expected an object with an "mcpServers" object' }],
    };
  const result: ImportResult = { configs: [], errors: [] };
  for (const [name, raw] of Object.entries(file.data.mcpServers)) {
    try {
      result.configs.push(toConfig(name, raw));
    } catch (err) {
      result.errors.push({ name, message: explain(err) });
    }
  }
  return result;
}

/** The servers to import, with the masked values that keep a stored secret named per server. */
export type ImportPlan = ImportResult & { kept: Array<{ name: string; keys: string[] }> };

/**
 * An export masks env and header values (MASK): importing it back keeps the stored secret of the same
 * server and key. A masked value with nothing stored to keep makes that entry an error naming the key;
 * the other entries still import.
 */
export function keepMaskedSecrets(
  result: ImportResult,
  stored: (name: string) => McpServerConfig | null,
): ImportPlan {
  const plan: ImportPlan = { configs: [], errors: [...result.errors], kept: [] };
  for (const config of result.configs) {
    const { config: unmasked, kept, missing } = unmaskSecrets(config, stored(config.name));
    if (missing.length) plan.errors.push({ name: config.name, message: missingSecretsMessage(missing) });
    else {
      plan.configs.push(unmasked);
      if (kept.length) plan.kept.push({ name: config.name, keys: kept });
    }
  }
  return plan;
}
