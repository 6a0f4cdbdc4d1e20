import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' }).notNull().default(sql`(unixepoch('subsec') * 1000)`);
const updatedAt = () =>
  integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

// ── better-auth tables (field names are the library's) ────────────────────────
export const user = sqliteTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
  image: text('image'),
  role: text('role', { enum: ['user', 'admin'] })
    .notNull()
    .default('user'),
  disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
  /** The UI language the user picked (`en`, `zh-CN`); null = follow the browser. */
  locale: text('locale'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = sqliteTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_idx').on(t.userId)],
);

export const account = sqliteTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: integer('access_token_expires_at', { mode: 'timestamp_ms' }),
    refreshTokenExpiresAt: integer('refresh_token_expires_at', { mode: 'timestamp_ms' }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_idx').on(t.userId)],
);

export const verification = sqliteTable('verification', {
  id: text('id').primaryKey(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// ── product tables ─────────────────────────────────────────────────────────────
export const conversations = sqliteTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Who wrote the title: `auto` (the first words, then the model's title), `user` (a rename; never overwritten). */
    titleSource: text('title_source', { enum: ['auto', 'model', 'user'] })
      .notNull()
      .default('auto'),
    model: text('model'),
    /** Tools the owner chose to "always allow" here, as `server/tool`. */
    allowedTools: text('allowed_tools', { mode: 'json' }).$type<string[]>().notNull().default([]),
    /** Tool strategy: off (no tools sent), auto (the model decides), required (first step must call one). */
    toolMode: text('tool_mode', { enum: ['off', 'auto', 'required'] })
      .notNull()
      .default('auto'),
    /** Servers this conversation may use (null = every enabled server). */
    toolServers: text('tool_servers', { mode: 'json' }).$type<string[] | null>(),
    /** Tools switched off here, as `server/tool`. */
    disabledTools: text('disabled_tools', { mode: 'json' }).$type<string[]>().notNull().default([]),
    maxSteps: integer('max_steps'),
    maxToolCalls: integer('max_tool_calls'),
    /** The assistant the conversation was started with (its name is shown in the header); cleared when it is deleted. */
    assistantId: text('assistant_id'),
    /** The conversation's own instructions (seeded from its assistant, editable): the system message's first part. */
    instructions: text('instructions'),
    /** Sampling temperature (null = the provider's default). */
    temperature: real('temperature'),
    /**
     * The last message of the selected path (messages form a tree: edits and regenerations add
     * siblings); the conversation shows, exports, shares and searches the path from the root to it.
     */
    leafId: text('leaf_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_user_updated_idx').on(t.userId, t.updatedAt, t.id)],
);

/**
 * A named bundle of instructions and conversation settings, picked when starting a chat. Personal (its
 * owner only) or `shared` by an admin with every user.
 */
export const assistants = sqliteTable(
  'assistants',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull(),
    /** null = the user's default model. */
    model: text('model'),
    /** null = the default tool mode. */
    toolMode: text('tool_mode', { enum: ['off', 'auto', 'required'] }),
    /** Servers a conversation started with it may use (null = every server the user may use). */
    servers: text('servers', { mode: 'json' }).$type<string[] | null>(),
    temperature: real('temperature'),
    shared: integer('shared', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('assistants_user_idx').on(t.userId), index('assistants_shared_idx').on(t.shared)],
);

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').notNull(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    /** UIMessage.parts, stored verbatim. */
    parts: text('parts', { mode: 'json' }).$type<unknown[]>().notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The message this one follows (null: the first of a path). Siblings are versions (edit, regenerate). */
    parentId: text('parent_id'),
    /** Order of writing within the conversation (siblings are numbered in this order). */
    seq: integer('seq').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.id] }),
    index('messages_conv_seq_idx').on(t.conversationId, t.seq),
    index('messages_conv_parent_idx').on(t.conversationId, t.parentId, t.seq),
    // The cut-turn sweep reads only recent questions (unansweredConversations).
    index('messages_user_created_idx').on(t.createdAt).where(sql`role = 'user'`),
  ],
);

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
});

// ── MCP ────────────────────────────────────────────────────────────────────────
export const mcpServers = sqliteTable('mcp_servers', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** The whole validated config (lib/schemas/mcp.ts), env and header values sealed (db/sealing.ts); re-validated when read. */
  config: text('config', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const toolCalls = sqliteTable(
  'tool_calls',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id'),
    server: text('server').notNull(),
    tool: text('tool').notNull(),
    durationMs: integer('duration_ms').notNull(),
    outcome: text('outcome', { enum: ['ok', 'error', 'denied', 'cancelled'] }).notNull(),
    errorKind: text('error_kind'),
    error: text('error'),
    resultBytes: integer('result_bytes').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('tool_calls_server_created_idx').on(t.server, t.createdAt)],
);

/** Per-tool admin settings and the definition the admin last reviewed (for change detection). */
export const mcpTools = sqliteTable(
  'mcp_tools',
  {
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** null = the default policy (built-in and read-only tools auto, others ask). */
    approval: text('approval', { enum: ['auto', 'ask'] }),
    /** Hash of the reviewed definition (name, description, schemas, annotations). */
    reviewedHash: text('reviewed_hash').notNull(),
    reviewedDefinition: text('reviewed_definition', { mode: 'json' })
      .$type<Record<string, unknown>>()
      .notNull(),
    /** The server now announces a different definition: asks again until an admin reviews it. */
    changed: integer('changed', { mode: 'boolean' }).notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.tool] })],
);

/**
 * What one user keeps for one MCP server: the values the admin marked "each user supplies this"
 * (kind `value`, key = env or header name) and the user's OAuth state (kind `oauth`: tokens, PKCE
 * verifier, discovery). Every value sealed (db/sealing.ts); never returned by any API.
 */
export const mcpUserSecrets = sqliteTable(
  'mcp_user_secrets',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['value', 'oauth'] }).notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.serverId, t.kind, t.key] })],
);

/** OAuth clients registered dynamically, one per authorization server (its issuer), sealed. */
export const mcpOauthClients = sqliteTable('mcp_oauth_clients', {
  issuer: text('issuer').primaryKey(),
  client: text('client').notNull(),
  createdAt: createdAt(),
});

export const providers = sqliteTable('providers', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  baseURL: text('base_url').notNull(),
  /** Sealed with AES-256-GCM under ENCRYPTION_KEY (db/sealing.ts); never returned by the API. */
  apiKeyEncrypted: text('api_key_encrypted'),
  models: text('models', { mode: 'json' }).$type<string[]>().notNull().default([]),
  toolCalling: text('tool_calling', { enum: ['native', 'prompt'] })
    .notNull()
    .default('native'),
  /** Who may use this provider's models: "*", a role or an email (lib/access.ts). */
  allow: text('allow', { mode: 'json' }).$type<string[]>().notNull().default(['*']),
  /** Per model, a narrower list than `allow` (a model not named here follows `allow`). */
  modelAllow: text('model_allow', { mode: 'json' }).$type<Record<string, string[]>>().notNull().default({}),
  /** Models that cannot take images (tool-result images reach them as a note). */
  noVision: text('no_vision', { mode: 'json' }).$type<string[]>().notNull().default([]),
  /** Per model, what 1M input and 1M output tokens cost (USD); a model not named here shows no cost. */
  prices: text('prices', { mode: 'json' })
    .$type<Record<string, { input: number; output: number }>>()
    .notNull()
    .default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A public, read-only snapshot of a conversation; the token is the only key (≥128 random bits). */
export const shares = sqliteTable(
  'shares',
  {
    token: text('token').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** The sanitized messages at share time (lib/share/serialize.ts): only what the public may see. */
    snapshot: text('snapshot', { mode: 'json' }).$type<unknown[]>().notNull(),
    includeToolDetails: integer('include_tool_details', { mode: 'boolean' }).notNull().default(false),
    ownerName: text('owner_name'),
    createdAt: createdAt(),
  },
  (t) => [index('shares_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Who did what to the admin surface, and which attempts were refused. Each kind is kept and pruned on its
 * own (db/queries/audit.ts), so anonymous traffic can never push admins' actions out of the log.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** First seen. */
    at: createdAt(),
    userId: text('user_id'),
    email: text('email'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome', { enum: ['ok', 'denied', 'failed'] }).notNull(),
    detail: text('detail'),
    /** Retention pool: admin = a signed-in actor's admitted action; refused = a signed-in actor denied; anonymous = no actor. */
    kind: text('kind', { enum: ['admin', 'refused', 'anonymous'] }).notNull(),
    /** Identical failures within a minute of each other share one row: how many, and the last one's time. */
    count: integer('count').notNull().default(1),
    lastAt: integer('last_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_kind_last_idx').on(t.kind, t.lastAt),
    index('audit_log_repeat_idx').on(t.action, t.userId, t.lastAt),
  ],
);

/**
 * A file a user uploaded (POST /api/files) to attach to a message. The bytes live in the data folder under
 * `files/`, named by their SHA-256 (two users uploading the same bytes share one copy on disk); the row is
 * what makes it someone's: only its owner (or a share that includes it) may read it.
 */
export const files = sqliteTable(
  'files',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the bytes: the name of the blob on disk. */
    sha256: text('sha256').notNull(),
    name: text('name').notNull(),
    /** Decided from the content (lib/files/sniff.ts), not from the name or the browser's word. */
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('files_user_idx').on(t.userId, t.createdAt), index('files_sha_idx').on(t.sha256)],
);
