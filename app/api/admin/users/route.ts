import { getDb } from '@/db/client';
import { listUsers } from '@/db/queries/users';
import { createUserAsAdmin } from '@/app/_server/admin-users';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { CreateUserSchema } from '@/lib/schemas/users';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json({ items: listUsers(getDb()), nextCursor: null });
});

export const POST = route(async (req) => {
  await requireAdmin(req);
  const input = await readJson(req, CreateUserSchema);
  return Response.json(await createUserAsAdmin(input), { status: 201 });
});
