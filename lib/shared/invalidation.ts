import 'server-only';
import { processState } from '@/lib/process-state';
import { type Bus, sharedBus } from '@/lib/shared/bus';

/** What a change (an admin's, or a user's own) can make stale in every instance's memory. */
export type InvalidationTopic =
  | 'settings'
  | 'users'
  | 'sessions'
  | 'providers'
  | 'tools'
  | 'mcp-servers'
  | 'user-connections'
  | 'auth';

type Handler = (payload: unknown) => void;
type Message = { topic: InvalidationTopic; payload?: unknown };

/**
 * Cache invalidation across instances: where a change refreshes an in-process cache, it also
 * publishes the topic (with an optional payload, e.g. a user id), and every other instance applies
 * the same refresh when the message arrives. One handler per topic (registering again replaces it, so
 * module graphs that register twice do not refresh twice). Without a bus (no REDIS_URL) nothing is sent.
 */
export class Invalidations {
  private readonly handlers = new Map<InvalidationTopic, Handler>();
  private listening?: Promise<unknown>;

  constructor(private readonly bus: Bus) {}

  /** Runs `handler` when another instance publishes `topic`; resolves once subscribed. */
  on(topic: InvalidationTopic, handler: Handler): Promise<unknown> {
    this.handlers.set(topic, handler);
    this.listening ??= this.bus.subscribe('invalidate', (payload) => {
      const message = payload as Partial<Message> | null;
      const handler = message?.topic ? this.handlers.get(message.topic) : undefined;
      handler?.(message?.payload);
    });
    return this.listening;
  }

  async publish(topic: InvalidationTopic, payload?: unknown): Promise<void> {
    await this.bus.publish('invalidate', { topic, payload } satisfies Message);
  }
}

function invalidations(): Invalidations | null {
  const bus = sharedBus();
  return bus ? processState('invalidations', () => new Invalidations(bus)) : null;
}

/** Tells the other instances that `topic` changed (not awaited; a failure is logged). No-op without REDIS_URL. */
export function publishInvalidation(topic: InvalidationTopic, payload?: unknown): void {
  invalidations()
    ?.publish(topic, payload)
    .catch((err: Error) => console.error(`[redis] could not publish a "${topic}" change: ${err.message}`));
}

/** Applies `handler` when another instance changes `topic`. No-op without REDIS_URL. */
export function onInvalidation(topic: InvalidationTopic, handler: Handler): void {
  invalidations()
    ?.on(topic, handler)
    .catch((err: Error) => console.error(`[redis] could not listen for changes: ${err.message}`));
}
