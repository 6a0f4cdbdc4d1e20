import type { ReactNode } from 'react';
import type { AppPermission } from '@/lib/mcp-apps/sandbox-policy';
import {
  type McpServerConfig,
  McpServerConfigSchema,
  type SamplingPolicy,
  type Scope,
} from '@/lib/schemas/mcp';

// The MCP server form's draft (what the inputs hold) and its conversion to and from a config.

/** The class of the form's text inputs and selects. */
export const INPUT =
  'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950';

/** What a group of the form's fields gets from the form (mcp-access-fields, mcp-client-fields). */
export type FieldGroupProps = {
  base: string;
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  bind: (field: Exclude<Field, 'oauth'>) => Record<string, unknown>;
  box: (field: Field, label: string, control: ReactNode) => ReactNode;
};

export type Transport = McpServerConfig['transport'];
export type Draft = {
  name: string;
  transport: Transport;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  builtin: string;
  timeoutMs: string;
  enabled: boolean;
  allowPrivateNetwork: boolean;
  scope: Scope;
  /** Comma- or line-separated: `*`, a role, or emails. */
  allow: string;
  /** Comma- or line-separated env or header names each user supplies. */
  userValues: string;
  oauthClientId: string;
  oauthClientSecret: string;
  /** Space- or comma-separated. */
  oauthScopes: string;
  sampling: SamplingPolicy;
  /** One file URI per line. */
  roots: string;
  /** Not in the form (set on the server's page): kept as it was. */
  logLevel: McpServerConfig['logLevel'];
  /** MCP Apps: the server's tool UIs render, with these permissions at most. */
  appsEnabled: boolean;
  appPermissions: AppPermission[];
};
export const FIELDS = [
  'name',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'timeoutMs',
  'builtin',
  'allow',
  'userValues',
  'oauth',
  'roots',
] as const;
export type Field = (typeof FIELDS)[number];
export type Errors = Partial<Record<Field | 'form', string>>;

export const SHORT: Record<Field, string> = {
  name: 'Name',
  command: 'Command',
  args: 'Arguments',
  env: 'Environment',
  cwd: 'Working directory',
  url: 'URL',
  headers: 'Headers',
  timeoutMs: 'Timeout',
  builtin: 'Built-in server',
  allow: 'Who may use it',
  userValues: 'Values each user supplies',
  oauth: 'OAuth',
  roots: 'Roots',
};
export const MASK = '••••••';

export function toDraft(c: McpServerConfig | null): Draft {
  const d: Draft = {
    name: c?.name ?? '',
    transport: c?.transport ?? 'stdio',
    command: '',
    args: '',
    env: '',
    cwd: '',
    url: '',
    headers: '',
    builtin: 'time',
    timeoutMs: String(c?.timeoutMs ?? 60_000),
    enabled: c?.enabled ?? true,
    allowPrivateNetwork: (c?.transport === 'http' || c?.transport === 'sse') && c.allowPrivateNetwork,
    scope: c?.scope ?? 'user',
    allow: (c?.allow ?? ['*']).join(', '),
    userValues: (c?.userValues ?? []).join(', '),
    oauthClientId: '',
    oauthClientSecret: '',
    oauthScopes: '',
    sampling: c?.sampling ?? 'ask',
    roots: (c?.roots ?? []).join('\n'),
    logLevel: c?.logLevel,
    appsEnabled: c?.apps?.enabled ?? true,
    appPermissions: c?.apps?.permissions ?? [],
  };
  if (c?.transport === 'stdio') {
    Object.assign(d, { command: c.command, args: c.args.join('\n'), cwd: c.cwd ?? '' });
    d.env = Object.entries(c.env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n');
  } else if (c?.transport === 'http' || c?.transport === 'sse') {
    Object.assign(d, {
      oauthClientId: c.oauth?.clientId ?? '',
      oauthClientSecret: c.oauth?.clientSecret ?? '',
      oauthScopes: (c.oauth?.scopes ?? []).join(' '),
      url: c.url,
      headers: Object.entries(c.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    });
  } else if (c?.transport === 'builtin') d.builtin = c.builtin;
  return d;
}

export const lines = (text: string) => text.split('\n').map((l) => l.replace(/\r$/, ''));

/** `KEY=VALUE` or `Name: value` lines into a record (blank lines skipped); a bad line is a field error. */
function parsePairs(text: string, field: 'env' | 'headers', errors: Errors): Record<string, string> {
  const sep = field === 'env' ? '=' : ':';
  const pairs = new Map<string, string>();
  lines(text).forEach((line, i) => {
    if (!line.trim()) return;
    const at = line.indexOf(sep);
    const key = line.slice(0, at).trim();
    if (at <= 0 || !key)
      errors[field] ??= `line ${i + 1}: expected ${field === 'env' ? 'KEY=VALUE' : 'Name: value'}`;
    else if (pairs.has(key)) errors[field] ??= `line ${i + 1}: ${key} is given twice`;
    else pairs.set(key, field === 'env' ? line.slice(at + 1) : line.slice(at + 1).trim());
  });
  return Object.fromEntries(pairs);
}

/** Puts an error from a field path (`command`, `env.KEY`, `args.0`) beside its field, or on the form. */
export function addError(errors: Errors, path: ReadonlyArray<PropertyKey>, message: string) {
  const [head, ...rest] = path.map(String);
  const field = FIELDS.find((f) => f === head);
  const where = head === 'args' && rest.length ? `line ${Number(rest[0]) + 1}` : rest.join('.');
  errors[field ?? 'form'] ??= where ? `${where}: ${message}` : message;
}

const list = (text: string, separators = /[,\n]/) =>
  text
    .split(separators)
    .map((v) => v.trim())
    .filter(Boolean);

/** The OAuth fields, when any is filled (all empty: the client discovers and registers itself). */
function oauthOf(d: Draft) {
  const scopes = list(d.oauthScopes, /[\s,]+/);
  const oauth = {
    ...(d.oauthClientId.trim() ? { clientId: d.oauthClientId.trim() } : {}),
    ...(d.oauthClientSecret ? { clientSecret: d.oauthClientSecret } : {}),
    ...(scopes.length ? { scopes } : {}),
  };
  return Object.keys(oauth).length ? { oauth } : {};
}

export function toConfig(d: Draft): { config: McpServerConfig | null; errors: Errors } {
  const errors: Errors = {};
  const timeout = Number(d.timeoutMs.trim());
  if (!/^\d+$/.test(d.timeoutMs.trim()) || timeout < 1000 || timeout > 3_600_000)
    errors.timeoutMs = 'must be a whole number from 1000 to 3600000';
  const common = {
    name: d.name.trim(),
    enabled: d.enabled,
    timeoutMs: timeout,
    scope: d.scope,
    allow: list(d.allow),
    userValues: d.transport === 'builtin' ? [] : list(d.userValues),
    ...(d.sampling !== 'ask' && { sampling: d.sampling }),
    ...(list(d.roots, /\n/).length && { roots: list(d.roots, /\n/) }),
    ...(d.logLevel && { logLevel: d.logLevel }),
    // Always sent (an edit is merged into the stored config: leaving it out would keep the old choice).
    ...(d.transport !== 'builtin' && { apps: { enabled: d.appsEnabled, permissions: d.appPermissions } }),
  };
  const raw =
    d.transport === 'stdio'
      ? {
          ...common,
          transport: d.transport,
          command: d.command,
          args: lines(d.args).filter((l) => l !== ''),
          env: parsePairs(d.env, 'env', errors),
          cwd: d.cwd.trim() || null,
        }
      : d.transport === 'builtin'
        ? { ...common, transport: d.transport, builtin: d.builtin }
        : {
            ...common,
            transport: d.transport,
            url: d.url.trim(),
            headers: parsePairs(d.headers, 'headers', errors),
            allowPrivateNetwork: d.allowPrivateNetwork,
            ...oauthOf(d),
          };
  const parsed = McpServerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
      addError(errors, issue.path, inner ?? issue.message);
    }
  }
  return { config: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors };
}
