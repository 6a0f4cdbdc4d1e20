import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** Readers remembered per connection (conversations × URIs); the least recently used go first. */
const MAX_READERS = 10_000;

/**
 * The resources one connection subscribed to (resources/subscribe, where the server offers it), how often
 * the server said each changed, and for each reader (a conversation that has it attached) how many of
 * those changes its copy has seen: every conversation holding the resource reads it again after a change,
 * not only the first one to take its turn. A subscription lives as long as the server's session: after a
 * reconnect it is renewed, and every watched resource counts as changed (a notification may have been
 * missed meanwhile).
 */
export class ResourceWatch {
  private readonly watched = new Set<string>();
  /** Changes the server announced per URI (a reconnect counts as one). */
  private readonly changes = new Map<string, number>();
  /** `${reader}\n${uri}` → the changes its copy has seen. */
  private readonly seen = new Map<string, number>();

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
    if (this.watched.has(uri)) this.changes.set(uri, this.version(uri) + 1);
  }

  /** How many changes of `uri` the server announced: pass it to `read` when a read started now succeeds. */
  version(uri: string): number {
    return this.changes.get(uri) ?? 0;
  }

  /** Whether `reader`'s copy missed a change (a reader first seen now holds the current one). */
  isStale(uri: string, reader: string): boolean {
    const key = `${reader}\n${uri}`;
    const seen = this.seen.get(key);
    if (seen === undefined) this.read(uri, reader, this.version(uri));
    return seen !== undefined && seen < this.version(uri);
  }

  /** `reader` read it again when it had changed `version` times: fresh for it until the next change. */
  read(uri: string, reader: string, version: number): void {
    const key = `${reader}\n${uri}`;
    this.seen.delete(key);
    this.seen.set(key, version);
    if (this.seen.size > MAX_READERS) this.seen.delete(this.seen.keys().next().value as string);
  }

  /** A new session: subscribe again, and treat everything watched as changed. */
  async renew(client: Client, timeout: number): Promise<void> {
    for (const uri of this.watched) {
      this.changes.set(uri, this.version(uri) + 1);
      await client.subscribeResource({ uri }, { timeout }).catch(() => this.watched.delete(uri));
    }
  }
}
