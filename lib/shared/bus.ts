import 'server-only';
import { randomUUID } from 'node:crypto';
import { processState } from '@/lib/process-state';
import { type RedisConnections, redisKey, sharedRedis } from '@/lib/shared/redis';
import { loggable } from '@/lib/loggable';

type Handler = (payload: unknown) => void;

/**
 * Publish/subscribe between app instances over Redis: named channels (`turns`, `invalidate`, …) carry
 * JSON messages stamped with the sender, and an instance never receives its own (what it publishes, it
 * has already done locally). One subscriber connection per instance serves every channel.
 */
export class Bus {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly subscribed = new Map<string, Promise<unknown>>();
  private listening = false;

  constructor(
    private readonly redis: RedisConnections,
    /** This instance; messages it sent are skipped when they come back. */
    readonly instanceId: string = randomUUID(),
  ) {}

  /** Calls `handler` with each message other instances publish on `channel`; resolves once Redis has the subscription. */
  async subscribe(channel: string, handler: Handler): Promise<() => void> {
    this.listen();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    let ready = this.subscribed.get(channel);
    if (!ready) {
      ready = this.redis.subscriber.subscribe(redisKey('bus', channel));
      this.subscribed.set(channel, ready);
    }
    await ready;
    return () => set.delete(handler);
  }

  /**
   * Sends `payload` to every other instance subscribed to `channel`. Resolves with the number of
   * instances Redis delivered it to, this one included when it is subscribed (it skips its own).
   */
  async publish(channel: string, payload: unknown): Promise<number> {
    return this.redis.command.publish(
      redisKey('bus', channel),
      JSON.stringify({ from: this.instanceId, payload }),
    );
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    const prefix = redisKey('bus', '');
    this.redis.subscriber.on('message', (channel: string, text: string) => {
      if (!channel.startsWith(prefix)) return;
      const handlers = this.handlers.get(channel.slice(prefix.length));
      if (!handlers?.size) return;
      let message: { from?: unknown; payload?: unknown };
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if (message.from === this.instanceId) return;
      for (const handler of handlers) {
        try {
          handler(message.payload);
        } catch (err) {
          console.error(`[bus] a handler of "${channel}" failed`, loggable(err));
        }
      }
    });
  }
}

/** This process's bus, or null without REDIS_URL. */
export function sharedBus(): Bus | null {
  const redis = sharedRedis();
  return redis ? processState('bus', () => new Bus(redis)) : null;
}
