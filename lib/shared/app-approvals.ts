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
  /**
   * The approval kept under `id`; null when there is none (taken, expired, unknown). Removed at once when
   * it is `userId`'s (of two takes at once, one gets it); another user's is left waiting for its owner.
   */
  take(id: string, userId: string): Promise<PendingApproval | null>;
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

  async take(id: string, userId: string): Promise<PendingApproval | null> {
    const found = this.pending.get(id);
    if (found?.userId === userId) this.pending.delete(id);
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

/**
 * GET, then DEL when the approval is the user's (ARGV[1]), in one script (atomic): of two takes at once by
 * its owner, one gets the value; another user's take reads it and leaves it.
 */
const TAKE = `local v = redis.call('GET', KEYS[1])
if v then
  local ok, d = pcall(cjson.decode, v)
  if ok and type(d) == 'table' and d.userId == ARGV[1] then redis.call('DEL', KEYS[1]) end
end
return v`;

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

  async take(id: string, userId: string): Promise<PendingApproval | null> {
    const raw = (await this.redis.command.eval(TAKE, 1, redisKey('app-approval', id), userId)) as
      | string
      | null;
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
