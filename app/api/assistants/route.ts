import { getDb } from '@/db/client';
import { listVisibleAssistants } from '@/db/queries/assistants';
import { createAssistant, presentAssistant, usableModelIds } from '@/app/_server/assistants';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { AssistantCreateSchema } from '@/lib/schemas/assistants';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The user's own assistants and the shared ones. */
export const GET = route(async (req) => {
  const user = await requireUser(req);
  const models = await usableModelIds(user);
  return Response.json({
    items: (await listVisibleAssistants(getDb(), user.id)).map((row) => presentAssistant(user, row, models)),
  });
});

export const POST = route(async (req) => {
  const user = await requireUser(req);
  const body = await readJson(req, AssistantCreateSchema);
  const row = await createAssistant(getDb(), user, body);
  return Response.json(presentAssistant(user, row, await usableModelIds(user)), { status: 201 });
});
