import 'server-only';
import type { OpenAIProvider } from '@ai-sdk/openai';
import type { Agent, Dispatcher } from 'undici';
import type { Env } from '@/lib/env';
import type { SignInBackoff } from '@/lib/login-backoff';
import type { McpPool } from '@/lib/mcp/pool';
import type { OllamaProbe } from '@/lib/ollama';
import type { ProviderSpec } from '@/lib/providers';
import type { FirstTokenGate } from '@/lib/chat/first-token-gate';
import type { IdleMemoryRelease } from '@/lib/idle-memory';
import type { Gate, RequestLimiter } from '@/lib/rate-limit';
import type { AppApprovals } from '@/lib/shared/app-approvals';
import type { Bus } from '@/lib/shared/bus';
import type { Invalidations } from '@/lib/shared/invalidation';
import type { RedisConnections } from '@/lib/shared/redis';

/**
 * Everything that lives for the life of the process, in one place.
 *
 * Next.js compiles instrumentation, the proxy and the routes as separate module graphs, so a module-level
 * `let` can exist several times in one process; anything that must be one per process is kept on
 * `globalThis`. It is kept there under ONE key, holding the object typed by `ProcessState` below: every
 * slot, what it is and why it lives for the process. An owner gets its slot through `processState(key,
 * create)`, which creates it on first use; `dropProcessState(key)` forgets one (a cache invalidated) and
 * `resetProcessState()` forgets them all (tests). Nothing is closed or flushed: that stays with the owner.
 *
 * Slots owned outside lib/ (db/, app/) have types this file may not import (lib/ never imports db/).
 * They are listed here all the same, typed `Owned<'key'>`; the owner supplies the type by augmenting
 * `OwnedSlots` next to the code that fills the slot:
 *
 *     declare module '@/lib/process-state' {
 *       interface OwnedSlots { db: Handle }
 *     }
 *
 * A slot whose owner declares no type is `never`, which no value fits, and a key not listed here is no
 * slot at all, so this file stays the complete list.
 *
 */
export type ProcessState = {
  /** lib/env.ts: the parsed environment; parsing also generates the data folder's secrets, so once. */
  env: Env;
  /** db/client.ts: the SQLite handle, migrated on first use, with its statement cache; one per process. */
  db: Owned<'db'>;
  /** db/sealing.ts: each open handle's encryption keys, looked up from whichever graph runs the query. */
  dbSecrets: Owned<'dbSecrets'>;
  /** db/sealing.ts: owners whose stored secrets were reported undecryptable, so each is logged once. */
  unreadableSecrets: Set<string>;
  /** lib/one-at-a-time.ts: the tail of each key's queue of steps that must not interleave. */
  stepQueues: Map<string, Promise<void>>;
  /** lib/mcp/pool.ts: the MCP connections and child processes; two pools would spawn every server twice. */
  pool: McpPool;
  /** lib/net/guarded-fetch.ts: the undici agent that connects only to public addresses; keeps its sockets. */
  publicAgent: Agent;
  /** lib/ollama.ts: the last probe of the local Ollama and the probe in flight, so probes never pile up. */
  ollama: { last?: OllamaProbe; probing?: Promise<OllamaProbe> };
  /** lib/chat/provider-fetch.ts: the undici agent model providers are called through; keeps its sockets. */
  providerAgent: Dispatcher;
  /** lib/providers.ts: OpenAI-compatible clients by provider version, reused across turns. */
  providerClients: Map<string, OpenAIProvider>;
  /** lib/share/lookup-limit.ts: share-page lookups per client address (S13); a limit must see every request. */
  shareLookups: RequestLimiter;
  /** app/_server/auth.ts: the better-auth instance (its own rate limits live in it). */
  auth: Owned<'auth'>;
  /** app/_server/auth-gate.ts: per-account sign-in back-off; failures must count across all routes. */
  loginBackoff: SignInBackoff;
  /** app/_server/import-limit.ts: imports per admin per minute. */
  importLimiter: RequestLimiter;
  /** app/_server/hot-cache.ts: settings and users by id; every write path through the app invalidates them. */
  hotCache: Owned<'hotCache'>;
  /** app/_server/model-sources.ts: the admin's providers, decrypted; dropped when an admin changes one. */
  providerSpecs: Promise<ProviderSpec[]>;
  /** app/_server/tool-policy.ts: tool settings and server configs; dropped on an admin change or new tools. */
  toolPolicy: Owned<'toolPolicy'>;
  /** app/_server/turn-admission.ts: chat requests per user per minute (rebuilt when the admin's rate changes). */
  chatRate: { perMinute: number; window: RequestLimiter };
  /** app/_server/turn-admission.ts: answers streaming at once per user; slots must outlive a rate change. */
  turnGate: Gate;
  /** app/_server/turn-admission.ts: gives memory back 5 s after the last answer ends (lib/idle-memory.ts). */
  idleMemory: IdleMemoryRelease;
  /** app/_server/running-turns.ts: the running turns and their buffer; Stop and resume must find them from any route. */
  runningTurns: Owned<'runningTurns'>;
  /** app/_server/turn-requests.ts: elicitation and sampling requests waiting for their owner's answer. */
  turnRequests: Owned<'turnRequests'>;
  /** app/_server/turn-request-answers.ts: answers asked of (and given to) other instances over the bus. */
  turnRequestAnswers: Owned<'turnRequestAnswers'>;
  /** app/_server/mcp-logs.ts: MCP server logs asked of (and given to) other instances over the bus. */
  serverLogs: Owned<'serverLogs'>;
  /** app/_server/mcp-status.ts: MCP server statuses asked of (and given to) other instances over the bus. */
  serverStatuses: Owned<'serverStatuses'>;
  /** app/_server/process-metrics.ts: each process's figures asked of (and given to) the others over the bus. */
  processMetrics: Owned<'processMetrics'>;
  /** app/_server/titles.ts: title requests in flight by conversation, so a client can wait for its title. */
  titleJobs: Map<string, Promise<void>>;
  /** lib/chat/first-token-gate.ts: turns waiting for their first token; title requests wait for them. */
  firstTokenGate: FirstTokenGate;
  /** app/_server/mcp-apps.ts: MCP App documents read per server, user and resource (a few minutes). */
  appDocuments: Owned<'appDocuments'>;
  /** app/_server/mcp-apps.ts: tool calls from apps per user per minute. */
  appCallRate: RequestLimiter;
  /** app/_server/mcp-apps.ts: app tool calls waiting for the user's approval (lib/shared/app-approvals.ts; Redis when shared). */
  appApprovals: AppApprovals;
  /** app/_server/shutdown.ts: set once SIGTERM / SIGINT arrives; GET /api/ready answers 503 from then on. */
  shutdown: { draining: boolean };
  /** app/_server/readiness.ts: the checks now failing (logged once). */
  readiness: { failing: Set<string> };
  /** lib/shared/redis.ts: the Redis connections when REDIS_URL is set; one set per process, closed at shutdown. */
  redis: RedisConnections;
  /** lib/shared/bus.ts: this instance's publish/subscribe bus over Redis (one subscriber connection). */
  bus: Bus;
  /** lib/shared/invalidation.ts: what each cache does when another instance reports an admin change. */
  invalidations: Invalidations;
};

/** The types of the slots owned outside lib/, each added by its owner (see above). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from db/ and app/
export interface OwnedSlots {}

type Owned<K extends string> = K extends keyof OwnedSlots ? OwnedSlots[K] : never;

type Key = keyof ProcessState;
const KEY = '__mcpChatProcessState';
const holder = globalThis as unknown as { [KEY]?: Partial<ProcessState> };

/** The process's slot `key`, created by `create` on first use (read through `globalThis` on every call). */
export function processState<K extends Key>(key: K, create: () => ProcessState[K]): ProcessState[K] {
  holder[KEY] ??= {};
  const state = holder[KEY];
  state[key] ??= create();
  return state[key] as ProcessState[K];
}

/** Forgets one slot: the next `processState(key, …)` creates it afresh (an invalidated cache). */
export function dropProcessState(key: Key): void {
  delete holder[KEY]?.[key];
}

/** Forgets every slot, for tests that need a fresh process (nothing is closed). */
export function resetProcessState(): void {
  delete holder[KEY];
}
