import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import { listAnswerUsage } from '@/db/queries/messages';
import { requireUser } from '@/app/_server/session';
import { settledTitle } from '@/app/_server/titles';
import { notFound } from '@/lib/errors';
import { parseWith, route } from '@/lib/http';
import { sumUsage } from '@/lib/usage';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** How long `?wait=1` waits for a title request in flight. */
const TITLE_WAIT_MS = 25_000;

const QuerySchema = z.object({ wait: z.enum(['0', '1']).default('0') }).strict();

/**
 * The conversation's title (who wrote it) and its token usage totals. `?wait=1`: after the first answer,
 * answers once the generated title has settled (or at the latest after 25 s) — the chat asks this so the
 * header, sidebar and tab title change without a reload.
 */
export const GET = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const query = parseWith(QuerySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  const db = getDb();
  const title = await settledTitle(db, user.id, id, query.wait === '1' ? TITLE_WAIT_MS : 0);
  if (!title) throw notFound('Conversation not found.');
  return Response.json(
    { ...title, usage: sumUsage(await listAnswerUsage(db, id)) },
    { headers: { 'cache-control': 'no-store' } },
  );
});
