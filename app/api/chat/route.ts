import * as z from '@/lib/zod';
import { startChatTurn } from '@/app/_server/chat-turn';
import { requireUser } from '@/app/_server/session';
import { parseWith, readJson, route } from '@/lib/http';
import { ApprovalRequestSchema, ChatRequestSchema } from '@/lib/schemas/chat-post';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const user = await requireUser(req);
  const raw = await readJson(req, z.record(z.string(), z.unknown()));
  // Either a new message or answers to pending tool approvals; each shape is validated strictly.
  const body =
    'approvals' in raw
      ? parseWith(ApprovalRequestSchema, raw, 'request body')
      : parseWith(ChatRequestSchema, raw, 'request body');
  return startChatTurn(user, body);
});
