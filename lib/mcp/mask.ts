import type { McpServerConfig } from '@/lib/schemas/mcp';

/** What the API shows instead of a stored env or header value (write-only secrets). */
export const MASK = '••••••';

const maskValues = (record: Record<string, string>) =>
  Object.fromEntries(Object.keys(record).map((k) => [k, MASK]));

export function maskConfig(config: McpServerConfig): McpServerConfig {
  if (config.transport === 'stdio') return { ...config, env: maskValues(config.env) };
  if (config.transport === 'http' || config.transport === 'sse')
    return {
      ...config,
      headers: maskValues(config.headers),
      ...(config.oauth?.clientSecret !== undefined ? { oauth: { ...config.oauth, clientSecret: MASK } } : {}),
    };
  return config;
}

/**
 * The config with these secrets (`env.KEY`, `headers.Name`) present as the mask: stored secrets that
 * cannot be decrypted, so the admin sees them, and an edit must enter them again or remove them.
 */
export function withMasked(config: McpServerConfig, keys: string[]): McpServerConfig {
  if (!keys.length || config.transport === 'builtin') return config;
  if (keys.includes('oauth.clientSecret') && config.transport !== 'stdio')
    config = { ...config, oauth: { ...config.oauth, clientSecret: MASK } };
  const field = config.transport === 'stdio' ? 'env' : 'headers';
  const masked = Object.fromEntries(
    keys.filter((k) => k.startsWith(`${field}.`)).map((k) => [k.slice(field.length + 1), MASK]),
  );
  return config.transport === 'stdio'
    ? { ...config, env: { ...config.env, ...masked } }
    : { ...config, headers: { ...config.headers, ...masked } };
}

/**
 * What became of masked values: `kept` names the ones that keep the stored secret, `missing` the ones
 * with no stored secret to keep (as `env.KEY` / `headers.Name`). A mask is never stored as a value.
 */
export type Unmasked = { config: McpServerConfig; kept: string[]; missing: string[] };

function unmaskValues(
  field: string,
  next: Record<string, string>,
  stored: Record<string, string>,
  out: Unmasked,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(next)) {
    if (v !== MASK) values[k] = v;
    else if (Object.hasOwn(stored, k)) {
      values[k] = stored[k] as string;
      out.kept.push(`${field}.${k}`);
    } else out.missing.push(`${field}.${k}`);
  }
  return values;
}

/** A value sent back as the mask keeps the stored secret of the same key; anything else replaces it. */
export function unmaskSecrets(next: McpServerConfig, stored: McpServerConfig | null): Unmasked {
  const out: Unmasked = { config: next, kept: [], missing: [] };
  if (next.transport === 'stdio') {
    out.config = {
      ...next,
      env: unmaskValues('env', next.env, stored?.transport === 'stdio' ? stored.env : {}, out),
    };
  } else if (next.transport === 'http' || next.transport === 'sse') {
    const storedHeaders =
      stored && (stored.transport === 'http' || stored.transport === 'sse') ? stored.headers : {};
    out.config = { ...next, headers: unmaskValues('headers', next.headers, storedHeaders, out) };
    if (next.oauth?.clientSecret === MASK) {
      const kept =
        stored && stored.transport !== 'stdio' && stored.transport !== 'builtin' ? stored.oauth : undefined;
      if (kept?.clientSecret !== undefined) {
        out.config.oauth = { ...next.oauth, clientSecret: kept.clientSecret };
        out.kept.push('oauth.clientSecret');
      } else out.missing.push('oauth.clientSecret');
    }
  }
  return out;
}

/** Why masked values cannot be saved: for the admin, naming each key. */
export function missingSecretsMessage(missing: string[]): string {
  return `${missing.join(', ')}: the masked value (${MASK}) has no stored secret to keep; enter the real value`;
}
