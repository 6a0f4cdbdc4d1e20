import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * The resources one connection subscribed to (resources/subscribe, where the server offers it) and when
 * the server last said each changed (notifications/resources/updated). Whoever holds a copy compares its
 * own read time: each conversation holding the resource reads it again once, whichever reads first (one
 * shared mark, cleared by the first reader, left the others with the old text). A subscription lives as
 * long as the server's session: after a reconnect it is renewed, and every watched resource counts as
 * changed then (a notification may have been missed meanwhile).
 */
export class ResourceWatch {
  private readonly watched = new Set<string>();
  private readonly changedAt = new Map<string, number>();

  /** At most this many per connection; more are not watched (they are still read when attached). */
  constructor(private readonly max = 100) {}

  watching(uri: string): boolean {
    return this.watched.has(uri);
  }

  /** Subscribes once per URI; false when the server offers no subscriptions (or the cap is reached). */
  async subscribe(client: Client, uri: string, timeout: number): Promise<boolean> {
    if (this.watched.has(uri)) return true;
    if (!client.getServerCapabilities()?.resources?.subscribe || this.watched.size >= this.max) return false;
    await client.subscribeResource({ uri }, { timeout });
    this.watched.add(uri);
    return true;
  }

  /** The server said it changed. */
  updated(uri: string, now = Date.now()): void {
    if (this.watched.has(uri)) this.changedAt.set(uri, now);
  }

  /** Whether the server said it changed at or after `readAt` (ms): a copy read then is out of date. */
  changedSince(uri: string, readAt: number): boolean {
    const at = this.changedAt.get(uri);
    return at !== undefined && at >= readAt;
  }

  /** A new session: subscribe again, and treat everything watched as changed. */
  async renew(client: Client, timeout: number, now = Date.now()): Promise<void> {
    for (const uri of this.watched) {
      this.changedAt.set(uri, now);
      await client.subscribeResource({ uri }, { timeout }).catch(() => this.watched.delete(uri));
    }
  }
}
