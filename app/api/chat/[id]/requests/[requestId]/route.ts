import { answerTurnRequestAnywhere } from '@/app/_server/turn-request-answers';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { RequestAnswerSchema } from '@/lib/schemas/turn-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string; requestId: string }> };

/**
 * The owner's answer to an MCP server's request in the running turn: a form elicitation's values,
 * accept/decline/cancel, or a sampling request's approve/deny. `{ ok: true }`; 404 when it is not
 * waiting (or not theirs), 409 when already answered, 400 with the fields that need attention.
 */
export const POST = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id, requestId } = await params;
  const answer = await readJson(req, RequestAnswerSchema);
  await answerTurnRequestAnywhere(user.id, id, requestId, answer);
  return Response.json({ ok: true });
});
