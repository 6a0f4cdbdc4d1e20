import * as z from '@/lib/zod';
import { APP_PERMISSIONS, AppPermissionSchema } from '@/lib/mcp-apps/sandbox-policy';
import { HttpUrlSchema } from '@/lib/schemas/http-url';

export const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;
export const BUILTIN_SERVERS = ['time', 'calculator'] as const;
export type BuiltinServer = (typeof BUILTIN_SERVERS)[number];

const httpUrl = HttpUrlSchema;

const envKey = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be a valid environment variable name');
const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'must be a valid header name');
const value = z
  .string()
  .max(8192)
  .refine((v) => !/[\r\n\0]/.test(v), 'must not contain line breaks or NUL');

/** Who may use something: "*" (everyone), a role, or an email (lib/access.ts). */
export const AllowListSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(320)
      .refine(
        (v) => v === '*' || v === 'admin' || v === 'user' || /^[^\s@]+@[^\s@]+$/.test(v),
        'must be "*", a role ("admin", "user") or an email',
      ),
  )
  .max(500);

/** A root the client shares with a server: an absolute file URI (MCP roots). */
export const RootUriSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'file:' && u.pathname.startsWith('/') && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, 'must be a file URI such as file:///srv/data');

/** How a server's sampling requests (it asks our model) are handled: asked, run at once, or refused. */
export const SamplingPolicySchema = z.enum(['ask', 'auto', 'never']);
export type SamplingPolicy = z.infer<typeof SamplingPolicySchema>;

/** The level of the log messages a server sends (logging/setLevel, RFC 5424 names). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export const LogLevelSchema = z.enum(LOG_LEVELS);

const common = {
  name: z.string().regex(SERVER_NAME, 'must match ^[a-zA-Z0-9_-]{1,32}$'),
  enabled: z.boolean().default(true),
  timeoutMs: z.number().int().min(1000).max(3_600_000).default(60_000),
  allow: AllowListSchema.min(1, 'must name someone ("*" for everyone)').default(['*']),
  /** Folders the server may work in, as file URIs (a per-user server also gets the user's own folder). */
  roots: z.array(RootUriSchema).max(50).optional(),
  /** Default "ask". */
  sampling: SamplingPolicySchema.optional(),
  /** Sent with logging/setLevel on connect when the server logs; without it the server's default. */
  logLevel: LogLevelSchema.optional(),
  /** MCP Apps: whether the server's tool UIs render (default on), and the permissions they may be granted (default none). */
  apps: z
    .object({
      enabled: z.boolean().default(true),
      permissions: z.array(AppPermissionSchema).max(APP_PERMISSIONS.length).default([]),
    })
    .strict()
    .optional(),
};

/** One connection for everyone, or one per user (own child or session, own credentials and state). */
export const ScopeSchema = z.enum(['shared', 'user']);
export type Scope = z.infer<typeof ScopeSchema>;

/** Env or header names whose value each user supplies for themself (per-user scope only). */
const userValuesNeedUserScope = (c: { scope: Scope; userValues: string[] }) =>
  c.scope === 'user' || c.userValues.length === 0;
const userValuesRule = {
  message: 'values each user supplies need scope "user"',
  path: ['userValues'],
};

export const StdioConfigSchema = z
  .object({
    ...common,
    transport: z.literal('stdio'),
    command: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(1024)
      .refine((v) => !/[\0\r\n]/.test(v), 'must be one line'),
    args: z
      .array(
        z
          .string()
          .max(8192)
          .refine((v) => !v.includes('\0'), 'must not contain NUL'),
      )
      .max(200)
      .default([]),
    env: z.record(envKey, value).default({}),
    cwd: z.string().max(1024).nullable().default(null),
    scope: ScopeSchema.default('user'),
    userValues: z.array(envKey).max(50).default([]),
  })
  .strict()
  .refine(userValuesNeedUserScope, userValuesRule);

export const RemoteConfigSchema = z
  .object({
    ...common,
    transport: z.enum(['http', 'sse']),
    url: httpUrl,
    headers: z.record(headerName, value).default({}),
    /** Loopback and private addresses are refused unless the admin says the server lives there. */
    allowPrivateNetwork: z.boolean().default(false),
    scope: ScopeSchema.default('user'),
    userValues: z.array(headerName).max(50).default([]),
    /** OAuth client identity; without it the client is found by metadata document or registration. */
    oauth: z
      .object({
        clientId: z.string().trim().min(1).max(500).optional(),
        clientSecret: z.string().max(2000).optional(),
        scopes: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine(userValuesNeedUserScope, userValuesRule);

export const BuiltinConfigSchema = z
  .object({
    ...common,
    transport: z.literal('builtin'),
    builtin: z.enum(BUILTIN_SERVERS),
    scope: ScopeSchema.default('shared'),
    userValues: z.array(z.string()).max(0).default([]),
  })
  .strict();

/** An MCP server as the API takes it and the DB stores it (SPEC §4). */
export const McpServerConfigSchema = z.discriminatedUnion('transport', [
  StdioConfigSchema,
  RemoteConfigSchema,
  BuiltinConfigSchema,
]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type StdioConfig = z.infer<typeof StdioConfigSchema>;
export type RemoteConfig = z.infer<typeof RemoteConfigSchema>;
export type BuiltinConfig = z.infer<typeof BuiltinConfigSchema>;

export type ApprovalPolicy = 'auto' | 'ask';
export type ServerStatus = 'idle' | 'connecting' | 'connected' | 'error' | 'disabled';
export type ErrorKind = 'connection' | 'auth' | 'timeout' | 'protocol';

export type ServerStatusInfo = {
  name: string;
  status: ServerStatus;
  lastError: { kind: ErrorKind; message: string; at: string } | null;
  connectedSince: string | null;
  toolCount: number;
  retryAt: string | null;
};
