import { AuthorizeSchema, startSignIn } from '@/app/_server/mcp-sign-in';
import { requireUser } from '@/app/_server/session';
import { readOptionalJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ server: string }> };

/** SPEC §7.2: starts the user's OAuth sign-in to a server: `{ url }` of its authorization page. */
export const POST = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const body = await readOptionalJson(req, AuthorizeSchema);
  return startSignIn(user, (await params).server, body?.returnTo);
});
