import { answerError, fetchOrUnreachable } from '@/app/_components/request-errors';
import type { AppCsp, AppPermission } from '@/lib/mcp-apps/sandbox-policy';

/** GET /api/mcp-apps/resource. */
export type AppDocument = {
  html: string;
  csp: AppCsp;
  permissions: AppPermission[];
  deniedPermissions: string[];
  prefersBorder: boolean;
};

/** App documents, read once per page per server and resource (the server caches them too). */
const documents = new Map<string, Promise<AppDocument>>();

export async function errorText(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
  return body.error?.message ?? `HTTP ${res.status}`;
}

export function loadDocument(server: string, uri: string): Promise<AppDocument> {
  const key = `${server}\n${uri}`;
  let doc = documents.get(key);
  if (!doc) {
    doc = fetchOrUnreachable(`/api/mcp-apps/resource?${new URLSearchParams({ server, uri })}`).then(
      async (res) => {
        if (!res.ok) throw await answerError(res);
        return (await res.json()) as AppDocument;
      },
    );
    doc.catch(() => documents.delete(key));
    documents.set(key, doc);
  }
  return doc;
}

/** Drops the kept document, so the next load reads it afresh. */
export function forgetDocument(server: string, uri: string) {
  documents.delete(`${server}\n${uri}`);
}
