import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from '@/lib/zod';
import { ensurePrivateDir, ensurePrivateFile } from '@/lib/private-files';
import { processState } from '@/lib/process-state';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const HEX_KEY_RULE = 'must be 32 bytes written as 64 hex characters (openssl rand -hex 32)';

/** SPEC §2: every variable is optional; parsed once, here. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_PATH: z.string().min(1).default('./data/app.db'),
  /** `postgres://…`: Postgres instead of the SQLite file (SPEC §7.5). */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/i, 'must be a postgres:// address (unset: the SQLite file)')
    .optional(),
  AUTH_SECRET: z.string().min(16).optional(),
  APP_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OLLAMA_BASE_URL: z.url().default('http://127.0.0.1:11434'),
  MCP_SERVERS_FILE: z.string().min(1).optional(),
  /** `1`: behind a reverse proxy, take the client address from X-Forwarded-For (SPEC §7.5). */
  TRUST_PROXY: z
    .enum(['0', '1'], { error: 'must be 1 (behind a reverse proxy) or 0' })
    .default('0')
    .transform((v) => v === '1'),
  /** Per-user MCP connections (their own stdio child or session) one user may hold live at once. */
  MCP_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  /** Per-user MCP connections all users together may hold live at once. */
  MCP_MAX_USER_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(200),
  /** `1`: email and password sign-in works whatever the admin set (recovery when single sign-on fails). */
  FORCE_PASSWORD_SIGN_IN: z
    .enum(['0', '1'], { error: 'must be 1 (password sign-in on, whatever the admin set) or 0' })
    .default('0')
    .transform((v) => v === '1'),
  /** Largest file one upload may be (POST /api/files), in MB. */
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(20),
  /** SPEC §7.5: the key that seals secrets stored in the database. */
  ENCRYPTION_KEY: z.string().regex(HEX_KEY, HEX_KEY_RULE).optional(),
  /** SPEC §7.5: `redis://…` (or `rediss://…`): running turns, Stop, limits and invalidation shared by every instance. */
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
});

export type Env = z.infer<typeof EnvSchema> & {
  APP_URL: string;
  AUTH_SECRET: string;
  /** 64 lowercase hex characters (32 bytes). */
  ENCRYPTION_KEY: string;
  /** Absolute folder that holds the database and generated secrets. */
  dataDir: string;
};

function blankToUndefined(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(source)) out[key] = value === '' ? undefined : value;
  return out;
}

/** A secret generated once into the data folder (mode 0600, also for a file written before that rule). */
function generatedSecret(file: string, generate: () => string): string {
  try {
    writeFileSync(file, generate(), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  ensurePrivateFile(file);
  return readFileSync(file, 'utf8').trim();
}

/** AUTH_SECRET from the environment, else generated once into the data folder. */
function loadAuthSecret(dataDir: string, fromEnv: string | undefined): string {
  return (
    fromEnv ?? generatedSecret(join(dataDir, 'auth-secret'), () => randomBytes(32).toString('base64url'))
  );
}

/** ENCRYPTION_KEY from the environment, else generated once into the data folder as `encryption-key`. */
function loadEncryptionKey(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv.toLowerCase();
  const file = join(dataDir, 'encryption-key');
  const key = generatedSecret(file, () => randomBytes(32).toString('hex'));
  if (!HEX_KEY.test(key))
    throw new Error(`Invalid environment: ENCRYPTION_KEY: the generated key in ${file} ${HEX_KEY_RULE}`);
  return key.toLowerCase();
}

/**
 * A blank variable means "unset". Libraries read some of these directly (the OpenAI provider reads
 * OPENAI_BASE_URL when it loads and rejects ''), so blanks are removed from process.env too.
 */
function dropBlankVariables(): void {
  for (const key of Object.keys(EnvSchema.shape)) {
    if (process.env[key] === '') delete process.env[key];
  }
}

function parseEnv(): Env {
  dropBlankVariables();
  const result = EnvSchema.safeParse(blankToUndefined(process.env));
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const env = result.data;
  const dbPath = resolve(env.DATABASE_PATH);
  const dataDir = dirname(dbPath);
  ensurePrivateDir(dataDir);
  return {
    ...env,
    DATABASE_PATH: dbPath,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    AUTH_SECRET: loadAuthSecret(dataDir, env.AUTH_SECRET),
    ENCRYPTION_KEY: loadEncryptionKey(dataDir, env.ENCRYPTION_KEY),
    dataDir,
  };
}

/** The environment, parsed once per process (lib/process-state.ts). */
export function getEnv(): Env {
  return processState('env', parseEnv);
}

/** Origins we accept for state-changing requests: APP_URL, plus its loopback aliases. */
export function trustedOrigins(): string[] {
  const app = new URL(getEnv().APP_URL);
  const origins = new Set([app.origin]);
  if (['localhost', '127.0.0.1', '[::1]'].includes(app.hostname)) {
    for (const host of ['localhost', '127.0.0.1', '[::1]'])
      origins.add(`${app.protocol}//${host}${app.port ? `:${app.port}` : ''}`);
  }
  return [...origins];
}
