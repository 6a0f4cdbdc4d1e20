/** Errors of the browser's requests to our API, worded for people by `useFailureText`. */

/**
 * A request that got no answer at all (the network is down, the server is gone): what fetch says then
 * ("Failed to fetch", "Load failed", …) depends on the browser and tells the user nothing.
 */
export class UnreachableError extends Error {
  constructor(cause: unknown) {
    super('Could not reach the server.', { cause });
    this.name = 'UnreachableError';
  }
}

/**
 * An answer without the API's JSON error (a proxy's 502 page, a crash before our handler): only its
 * status says anything. `bare` marks one whose message is this stand-in rather than the API's own words.
 */
export class HttpStatusError extends Error {
  readonly bare: boolean;
  constructor(
    readonly status: number,
    message?: string,
  ) {
    super(message ?? `The server answered HTTP ${status}.`);
    this.name = 'HttpStatusError';
    this.bare = message === undefined;
  }
}

/** The error a failed answer stands for: the API's `{ error: { message } }`, else its bare status. */
export async function answerError(res: Response): Promise<HttpStatusError> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = body?.error?.message;
  return new HttpStatusError(res.status, typeof message === 'string' ? message : undefined);
}

/** fetch, failing with {@link UnreachableError} when no answer came (an abort still fails as the abort). */
export async function fetchOrUnreachable(input: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    if (init?.signal?.aborted) throw err;
    throw new UnreachableError(err);
  }
}
