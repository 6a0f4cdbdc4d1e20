import * as z from '@/lib/zod';
import { exportConversation } from '@/app/_server/conversation-transfer';
import { requireUser } from '@/app/_server/session';
import { parseWith, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({ format: z.enum(['md', 'json']).default('md') });

export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const user = await requireUser(req);
  const { format } = parseWith(QuerySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return exportConversation(user, (await params).id, format);
});
