/** A JSON request of the account page: `{ ok, status, code, field }` (the server's error code and first bad field). */
export async function accountRequest(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ ok: boolean; status: number; code?: string; fields?: Record<string, string> }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => null);
  if (!res) return { ok: false, status: 0 };
  if (res.ok) return { ok: true, status: res.status };
  const data = (await res.json().catch(() => null)) as {
    error?: { code?: string; fields?: Record<string, string> };
  } | null;
  return { ok: false, status: res.status, code: data?.error?.code, fields: data?.error?.fields };
}
