import 'server-only';
import { randomUUID } from 'node:crypto';
import * as z from '@/lib/zod';
import { type RedisConnections, redisKey, sharedRedis } from '@/lib/shared/redis';

/**
 * MCP App tool calls waiting for the user's approval card (app/_server/mcp-apps.ts). The card's answer
 * is a second request that may reach another worker or instance, so with REDIS_URL the pending calls
 * live in Redis, each under `app-approval:<id>` for its time to live; without it, in this process.
 * `take` hands a pending call out once: a second take, from anywhere, finds nothing.
 */

const PendingApprovalSchema = z.object({
  userId: z.string(),
  conversationId: z.string(),
  server: z.string(),
  tool: z.string(),
  /** The call's arguments as JSON, compared as a string. */
  args: z.string(),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

export interface AppApprovals {
  /** Keeps `approval` for the store's time to live; returns the id the approval card answers with. */
  issue(approval: PendingApproval): Promise<string>;
  /** The approval kept under `id`, removed at once; null when there is none (taken, expired, unknown). */
  take(id: string): Promise<PendingApproval | null>;
}

export class MemoryAppApprovals implements AppApprovals {
  private readonly pending = new Map<string, PendingApproval & { expires: number }>();

  constructor(private readonly ttlMs: number) {}

  async issue(approval: PendingApproval): Promise<string> {
    this.sweep();
    const id = randomUUID();
    this.pending.set(id, { ...approval, expires: Date.now() + this.ttlMs });
    return id;
  }

  async take(id: string): Promise<PendingApproval | null> {
    const found = this.pending.get(id);
    this.pending.delete(id);
    this.sweep();
    if (!found || found.expires < Date.now()) return null;
    const { expires: _, ...approval } = found;
    return approval;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, p] of this.pending) if (p.expires < now) this.pending.delete(id);
  }
}

/** GET then DEL in one script (atomic; GETDEL needs Redis 6.2): of two takes at once, one gets the value. */
const TAKE = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v";

export class RedisAppApprovals implements AppApprovals {
  constructor(
    private readonly redis: RedisConnections,
    private readonly ttlMs: number,
  ) {}

  async issue(approval: PendingApproval): Promise<string> {
    const id = randomUUID();
    await this.redis.command.set(redisKey('app-approval', id), JSON.stringify(approval), 'PX', this.ttlMs);
    return id;
  }

  async take(id: string): Promise<PendingApproval | null> {
    const raw = (await this.redis.command.eval(TAKE, 1, redisKey('app-approval', id))) as string | null;
    if (raw === null) return null;
    try {
      return PendingApprovalSchema.parse(JSON.parse(raw));
    } catch {
      return null;
    }
  }
}

/** The store for this process: in Redis when REDIS_URL is set, else in memory. */
export function appApprovals(ttlMs: number): AppApprovals {
  const redis = sharedRedis();
  return redis ? new RedisAppApprovals(redis, ttlMs) : new MemoryAppApprovals(ttlMs);
}
