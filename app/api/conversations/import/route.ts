import { importConversation } from '@/app/_server/conversation-transfer';
import { maxUploadBytes } from '@/app/_server/file-uploads';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ConversationImportSchema } from '@/lib/schemas/conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Imports a JSON export as a new conversation: up to 10 MB, plus room for attachments (inlined as base64). */
export const POST = route(async (req) => {
  const user = await requireUser(req);
  const max = 10 * 1024 * 1024 + 3 * maxUploadBytes();
  return Response.json(await importConversation(user, await readJson(req, ConversationImportSchema, max)), {
    status: 201,
  });
});
