import type { McpServerConfig } from '@/lib/schemas/mcp';

/** What the API shows instead of a stored env or header value (write-only secrets). */
export const MASK = '••••••';

const maskValues = (record: Record<string, string>) => Object.fromEntries(Object.keys(record).map((k) => [k, MASK]));

export function maskConfig(config: McpServerConfig): McpServerConfig {
  if (config.transport === 'stdio') return { ...config, env: maskValues(config.env) };
  if (config.transport === 'http' || config.transport === 'sse') return { ...config, headers: maskValues(config.headers) };
  return config;
}

/** A value sent back as the mask keeps the stored secret; anything else replaces it. */
function unmaskValues(next: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(next).map(([k, v]) => [k, v === MASK && k in stored ? (stored[k] as string) : v]));
}

export function unmaskConfig(next: McpServerConfig, stored: McpServerConfig | null): McpServerConfig {
  if (next.transport === 'stdio') return { ...next, env: unmaskValues(next.env, stored?.transport === 'stdio' ? stored.env : {}) };
  if (next.transport === 'http' || next.transport === 'sse') {
    const storedHeaders = stored && (stored.transport === 'http' || stored.transport === 'sse') ? stored.headers : {};
    return { ...next, headers: unmaskValues(next.headers, storedHeaders) };
  }
  return next;
}
