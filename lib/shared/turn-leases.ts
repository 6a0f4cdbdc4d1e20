import 'server-only';
import type { Bus } from '@/lib/shared/bus';
import { type RedisConnections, redisKey } from '@/lib/shared/redis';

export type TurnLeaseOptions = {
  /** A lease not renewed for this long expires: a dead instance's turn frees its conversation. */
  leaseMs: number;
  /** The owner renews its leases this often while their turns run. */
  renewMs: number;
};

const DEFAULTS: TurnLeaseOptions = { leaseMs: 10_000, renewMs: 3_000 };

/** While a stopper waits for "stored", it also looks at the lease this often. */
const LEASE_POLL_MS = 500;
/** While an owner waits for another user's claim to be refused, it looks at the lease this often. */
const CLAIM_POLL_MS = 25;

/**
 * `mcpchat:lease:<conversation>` = `<instance> <turn> <user>` (the user id whose request claimed it; none
 * for a turn begun without one), with a time to live.
 */
const leaseKey = (conversationId: string) => redisKey('lease', conversationId);
/** The user a lease's value names, if any. */
const claimantOf = (value: string): string | undefined => value.split(' ').slice(2).join(' ') || undefined;

/** Renews or deletes a lease only while it is still ours (another instance may hold it since). */
const RENEW =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
/** Deletes the lease while it is still ours, and the conversation's mark as continuing after approvals. */
const RELEASE =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('ZREM', KEYS[2], ARGV[2]) return redis.call('DEL', KEYS[1]) end return 0";
/**
 * `mcpchat:continuing`: conversations whose turn continues an answer after its tool approvals (score: when
 * it began), until the turn releases its lease. The answer was stored with its calls answered before the
 * turn ran them; a turn whose instance died left it so, and the sweep finds it here (no question of its
 * own is left unanswered, so the sweep's query of recent questions does not).
 */
const CONTINUING = redisKey('continuing');

/** What a Stop found: no running turn; one stopped with its answer stored; one whose answer was not stored in time. */
export type StopOutcome = 'none' | 'stored' | 'unsettled';

type Message = { kind: 'stop' | 'stored'; conversationId: string };

/**
 * Which instance runs each conversation's turn, and Stop across instances. A turn takes a lease on its
 * conversation (SET NX PX) and renews it while it runs; another instance is refused while the lease
 * lives, and a dead owner's lease expires within `leaseMs`. Stop from an instance that does not run
 * the turn publishes a stop request on the `turns` channel; the owner aborts the turn and, once its
 * answer is stored (the turn ends), releases the lease and publishes "stored", which the stopper waits for.
 */
export class TurnLeases {
  private readonly options: TurnLeaseOptions;
  private readonly held = new Map<string, { turnId: string; value: string; renew: NodeJS.Timeout }>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private ready?: Promise<unknown>;

  constructor(
    private readonly redis: RedisConnections,
    private readonly bus: Bus,
    /** Aborts this instance's turn of the conversation, if it runs one here. */
    private readonly abortLocal: (conversationId: string) => void,
    options: Partial<TurnLeaseOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Listens for stop requests and "stored" notices; call (and await) before the first claim. */
  start(): Promise<unknown> {
    this.ready ??= this.bus.subscribe('turns', (payload) => {
      const message = payload as Partial<Message> | null;
      if (typeof message?.conversationId !== 'string') return;
      if (message.kind === 'stop') this.abortLocal(message.conversationId);
      else if (message.kind === 'stored') this.notifyStored(message.conversationId);
    });
    return this.ready;
  }

  /** Takes the conversation's lease for this turn of `userId`'s; false when another instance holds it. */
  async claim(conversationId: string, turnId: string, userId?: string): Promise<boolean> {
    await this.start();
    const key = leaseKey(conversationId);
    const value = [this.bus.instanceId, turnId, ...(userId ? [userId] : [])].join(' ');
    const ok = await this.redis.command.set(key, value, 'PX', this.options.leaseMs, 'NX');
    if (ok !== 'OK') return false;
    const renew = setInterval(() => {
      this.redis.command
        .eval(RENEW, 1, key, value, this.options.leaseMs)
        .catch((err: Error) => console.error(`[redis] renewing a turn lease: ${err.message}`));
    }, this.options.renewMs);
    renew.unref();
    const previous = this.held.get(conversationId);
    if (previous) clearInterval(previous.renew);
    this.held.set(conversationId, { turnId, value, renew });
    return true;
  }

  /** The turn has ended (its answer is stored): frees the conversation and tells any waiting stopper. */
  async release(conversationId: string, turnId: string): Promise<void> {
    const held = this.held.get(conversationId);
    if (held?.turnId !== turnId) return;
    clearInterval(held.renew);
    this.held.delete(conversationId);
    await this.redis.command.eval(
      RELEASE,
      2,
      leaseKey(conversationId),
      CONTINUING,
      held.value,
      conversationId,
    );
    await this.bus.publish('turns', { kind: 'stored', conversationId } satisfies Message);
  }

  /** Of these conversations, the ones whose turn some instance runs now (one round trip). */
  async runningOf(conversationIds: readonly string[]): Promise<Set<string>> {
    if (!conversationIds.length) return new Set();
    const held = await this.redis.command.mget(...conversationIds.map(leaseKey));
    return new Set(conversationIds.filter((_, i) => held[i] !== null));
  }

  /** Marks the conversation's turn (its lease taken) as continuing an answer after its approvals. */
  async noteContinuing(conversationId: string): Promise<void> {
    await this.redis.command.zadd(CONTINUING, Date.now(), conversationId);
  }

  /** Conversations marked continuing since `since` (older marks are dropped: their sweeps are past). */
  async continuingSince(since: number): Promise<string[]> {
    await this.redis.command.zremrangebyscore(CONTINUING, '-inf', `(${since}`);
    return this.redis.command.zrangebyscore(CONTINUING, since, '+inf');
  }

  /** The sweep has dealt with these (their turns were cut). */
  async forgetContinuing(conversationIds: readonly string[]): Promise<void> {
    if (conversationIds.length) await this.redis.command.zrem(CONTINUING, ...conversationIds);
  }

  /** One instance at a time may look for turns cut by a dead instance: true for the one that may now. */
  async takeSweep(ms: number): Promise<boolean> {
    return (await this.redis.command.set(redisKey('sweep'), this.bus.instanceId, 'PX', ms, 'NX')) === 'OK';
  }

  /** Whether any instance runs a turn in the conversation now. */
  async isRunning(conversationId: string): Promise<boolean> {
    return (await this.redis.command.exists(leaseKey(conversationId))) === 1;
  }

  /**
   * Waits (at most `ms`) while the conversation's lease is held by a claim of a user other than `userId`,
   * on any instance: another user's request naming the conversation holds it until its preparation finds
   * the conversation is not theirs (a 404), a few milliseconds. True once that claim has ended (or the
   * lease is free already); false at once when the lease is `userId`'s own turn or names no user.
   */
  async othersClaimEnded(conversationId: string, userId: string, ms: number): Promise<boolean> {
    await this.start();
    const key = leaseKey(conversationId);
    const deadline = Date.now() + ms;
    const seen = await this.redis.command.get(key);
    if (seen === null) return true;
    const claimant = claimantOf(seen);
    if (claimant === undefined || claimant === userId) return false;
    while (Date.now() < deadline) {
      // Its release publishes "stored": that ends the pause early; the lease is looked at either way.
      await this.pause(conversationId, Math.min(CLAIM_POLL_MS, deadline - Date.now()));
      if ((await this.redis.command.get(key)) !== seen) return true;
    }
    return false;
  }

  /**
   * Asks the instance running the conversation's turn to stop it, and waits until its answer is stored
   * (at most `waitMs`): 'stored', or 'unsettled' when the wait ran out; 'none' when no instance runs one.
   */
  async requestStop(conversationId: string, waitMs: number): Promise<StopOutcome> {
    await this.start();
    if (!(await this.isRunning(conversationId))) return 'none';
    let done = () => {};
    const stored = new Promise<void>((resolve) => (done = resolve));
    const forget = this.onStored(conversationId, done);
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.bus.publish('turns', { kind: 'stop', conversationId } satisfies Message);
      // The turn may have ended between the check and the request: then no "stored" follows. The lease
      // is also checked now and then, in case the notice is lost (the owner's connection dropped).
      let polling = true;
      const leaseGone = (async () => {
        while (polling && (await this.isRunning(conversationId)))
          await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
      })().catch(() => new Promise<void>(() => {})); // Redis unreachable: the notice or the bound decides
      const ended = await Promise.race([
        stored.then(() => true),
        leaseGone.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(resolve, waitMs, false))),
      ]).finally(() => (polling = false));
      return ended ? 'stored' : 'unsettled';
    } finally {
      clearTimeout(timer);
      forget();
    }
  }

  /** Resolves after `ms`, or sooner when a turn of the conversation says "stored". */
  private pause(conversationId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        forget();
        resolve();
      };
      const timer = setTimeout(wake, ms);
      const forget = this.onStored(conversationId, wake);
    });
  }

  /** Calls `done` when a turn of the conversation says "stored"; returns how to stop that. */
  private onStored(conversationId: string, done: () => void): () => void {
    let set = this.waiters.get(conversationId);
    if (!set) {
      set = new Set();
      this.waiters.set(conversationId, set);
    }
    set.add(done);
    return () => {
      set.delete(done);
      if (!set.size && this.waiters.get(conversationId) === set) this.waiters.delete(conversationId);
    };
  }

  /** Shutdown or tests: stop renewing (the leases then expire unless released). */
  dispose(): void {
    for (const { renew } of this.held.values()) clearInterval(renew);
    this.held.clear();
  }

  private notifyStored(conversationId: string): void {
    for (const done of this.waiters.get(conversationId) ?? []) done();
  }
}
