import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';

/**
 * The provider as the SDK's transport uses it, telling `seen` the access and refresh tokens each time it
 * reads them (when it connects, on each request, after a refresh): a connection masks them in what it logs,
 * as it masks the user's own values (a server's error may quote the bearer token it refused).
 */
export function withTokensSeen(
  provider: OAuthClientProvider,
  seen: (secrets: string[]) => void,
): OAuthClientProvider {
  return new Proxy(provider, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === 'tokens' && typeof value === 'function')
        return async () => {
          const tokens = await value.call(target);
          if (tokens) seen([tokens.access_token, tokens.refresh_token ?? ''].filter(Boolean));
          return tokens;
        };
      // Methods run on the provider itself (its private fields are not the proxy's).
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
