import { getDb } from '@/db/client';
import { changeAssistant, presentAssistant, removeAssistant, usableModelIds } from '@/app/_server/assistants';
import { requireUser } from '@/app/_server/session';
import { readIfMatch, readJson, route } from '@/lib/http';
import { AssistantPatchSchema } from '@/lib/schemas/assistants';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const ifMatch = readIfMatch(req);
  const patch = await readJson(req, AssistantPatchSchema);
  const row = await changeAssistant(getDb(), user, id, patch, ifMatch);
  return Response.json(presentAssistant(user, row, await usableModelIds(user)));
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  await removeAssistant(getDb(), user, id);
  return new Response(null, { status: 204 });
});
