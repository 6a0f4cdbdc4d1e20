import { z } from 'zod';
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

const common = {
  name: z.string().regex(SERVER_NAME, 'must match ^[a-zA-Z0-9_-]{1,32}$'),
  enabled: z.boolean().default(true),
  timeoutMs: z.number().int().min(1000).max(3_600_000).default(60_000),
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
  })
  .strict();

export const RemoteConfigSchema = z
  .object({
    ...common,
    transport: z.enum(['http', 'sse']),
    url: httpUrl,
    headers: z.record(headerName, value).default({}),
    /** Loopback and private addresses are refused unless the admin says the server lives there. */
    allowPrivateNetwork: z.boolean().default(false),
  })
  .strict();

export const BuiltinConfigSchema = z
  .object({ ...common, transport: z.literal('builtin'), builtin: z.enum(BUILTIN_SERVERS) })
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
