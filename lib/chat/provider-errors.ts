import { APICallError, RetryError } from 'ai';

/** A message a user can act on, for a failed model call; never a stack trace, a key or a URL with secrets. */
export function describeProviderError(error: unknown): string {
  const err = error instanceof RetryError ? error.lastError : error;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status !== undefined && status < 300)
      return 'The connection to the model provider was lost mid-answer. Retry to continue.';
    if (status === 401 || status === 403)
      return `The model provider refused the credentials (HTTP ${status}). Check the API key.`;
    if (status === 404)
      return 'The model provider does not know this model (HTTP 404). Check the model name.';
    if (status === 429)
      return 'The model provider is rate limiting us (HTTP 429). Wait a moment, then retry.';
    if (status && status >= 500) return `The model provider failed (HTTP ${status}). Retry in a moment.`;
    if (status) return `The model provider rejected the request (HTTP ${status}).`;
    return 'Could not reach the model provider. Check that it is running and reachable.';
  }
  if (
    err instanceof Error &&
    /fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|socket|terminated/i.test(
      `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}`,
    )
  ) {
    return 'The connection to the model provider was lost. Retry to continue.';
  }
  return 'The model provider failed to answer. Retry in a moment.';
}
