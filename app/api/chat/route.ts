import { startChatTurn } from '@/app/_server/chat-turn';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ChatRequestSchema } from '@/lib/schemas/chat';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const user = await requireUser(req);
  const body = await readJson(req, ChatRequestSchema);
  return startChatTurn(user, body, req.signal);
});
