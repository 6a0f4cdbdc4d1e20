import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * The resources one connection subscribed to (resources/subscribe, where the server offers it) and
 * those the server said changed (notifications/resources/updated) since they were last read. A
 * subscription lives as long as the server's session: after a reconnect it is renewed, and every
 * watched resource counts as changed (a notification may have been missed meanwhile).
 */
export class ResourceWatch {
  private readonly watched = new Set<string>();
  private readonly stale = new Set<string>();

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
  updated(uri: string): void {
    if (this.watched.has(uri)) this.stale.add(uri);
  }

  isStale(uri: string): boolean {
    return this.stale.has(uri);
  }

  /** Read again: fresh until the next notification. */
  refreshed(uri: string): void {
    this.stale.delete(uri);
  }

  /** A new session: subscribe again, and treat everything watched as changed. */
  async renew(client: Client, timeout: number): Promise<void> {
    for (const uri of this.watched) {
      this.stale.add(uri);
      await client.subscribeResource({ uri }, { timeout }).catch(() => this.watched.delete(uri));
    }
  }
}
