import { importConversation } from '@/app/_server/conversation-transfer';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ConversationImportSchema } from '@/lib/schemas/chat';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Imports a JSON export (up to 10 MB) as a new conversation. */
export const POST = route(async (req) => {
  const user = await requireUser(req);
  return Response.json(
    importConversation(user, await readJson(req, ConversationImportSchema, 10 * 1024 * 1024)),
    { status: 201 },
  );
});
