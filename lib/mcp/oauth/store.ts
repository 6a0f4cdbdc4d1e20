/**
 * Where the OAuth client keeps its state. Values are opaque strings (JSON written by the provider):
 * the app seals them at rest (ENCRYPTION_KEY) and never returns them from any API.
 *
 * - The per-connection store is scoped to ONE (user, server) pair (table mcp_user_secrets, kind
 *   `oauth`). Keys the provider uses: `tokens`, `pending` (PKCE verifier + state of the authorization
 *   in progress), `discovery` (protected resource + authorization server metadata), `challenge` (the
 *   last WWW-Authenticate scope / resource_metadata seen) and `client-issuer` (which authorization
 *   server the admin's pre-registered client id was first accepted by).
 * - The client store holds dynamically registered clients (and Client ID Metadata Document ids),
 *   keyed by the authorization server's issuer URL (table mcp_oauth_clients), shared by all users.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** In-memory store for tests and the conformance driver. */
export class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}
