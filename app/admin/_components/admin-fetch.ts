import { fetchOrUnreachable, HttpStatusError } from '@/app/_components/request-errors';

/**
 * The admin pages' JSON client: parses the API's error shape into an AdminApiError with field errors
 * (without a message of the API's own, `bare`: `useFailureText` then words the status).
 */
export class AdminApiError extends HttpStatusError {
  constructor(
    message: string | undefined,
    status: number,
    readonly fields?: Record<string, string>,
  ) {
    super(status, message);
    this.name = 'AdminApiError';
  }
}

export async function adminFetch<T>(url: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json, headers, ...rest } = init ?? {};
  const res = await fetchOrUnreachable(url, {
    ...rest,
    cache: 'no-store',
    headers: {
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(headers as Record<string, string> | undefined),
    },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as {
    error?: { message?: string; fields?: Record<string, string> };
  } | null;
  if (!res.ok) throw new AdminApiError(data?.error?.message, res.status, data?.error?.fields);
  return data as T;
}
