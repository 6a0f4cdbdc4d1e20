import { stopOwnTurn } from '@/app/_server/conversation-turns';
import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** Stops the conversation's running turn, from any tab or client: `{ stopped }`. */
export const POST = route<Ctx>(async (req, { params }) =>
  Response.json(await stopOwnTurn(await requireUser(req), (await params).id)),
);
