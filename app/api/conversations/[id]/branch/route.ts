import { selectOwnVersion } from '@/app/_server/conversation-turns';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { BranchSelectSchema } from '@/lib/schemas/conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/**
 * PUT { messageId }: show that version of a message (Previous version / Next version). The selected
 * path then runs through it down to its newest answers; answers with those messages and their versions.
 */
export const PUT = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const { messageId } = await readJson(req, BranchSelectSchema);
  return Response.json(await selectOwnVersion(user, id, messageId), {
    headers: { 'cache-control': 'no-store' },
  });
});
