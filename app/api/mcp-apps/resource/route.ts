import * as z from '@/lib/zod';
import { readAppResource } from '@/app/_server/mcp-apps';
import { requireUser } from '@/app/_server/session';
import { assertNotCrossSite, parseWith, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({ server: z.string().min(1).max(64), uri: z.string().min(1).max(2048) });

/**
 * A tool's MCP App document, read with resources/read over the user's own connection: `{ html, csp,
 * permissions, deniedPermissions, prefersBorder }` (csp reduced to safe origins; permissions = declared
 * and allowed by the admin). 404 for a server the user may not use, 403 when its apps are off.
 */
export const GET = route(async (req) => {
  assertNotCrossSite(req);
  const user = await requireUser(req);
  const { searchParams } = new URL(req.url);
  const q = parseWith(QuerySchema, Object.fromEntries(searchParams), 'query');
  return Response.json(await readAppResource(user, q.server, q.uri), {
    headers: { 'Cache-Control': 'private, no-store' },
  });
});
