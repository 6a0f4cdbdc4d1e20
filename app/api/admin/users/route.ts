import { getDb } from '@/db/client';
import { listUsers } from '@/db/queries/users';
import { createUserAsAdmin } from '@/app/_server/admin-users';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { CreateUserSchema } from '@/lib/schemas/users';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json({ items: await listUsers(getDb()), nextCursor: null });
});

export const POST = route(async (req) => {
  const admin = await requireAdmin(req);
  const input = await readJson(req, CreateUserSchema);
  const created = await createUserAsAdmin(input);
  await audit(admin, 'user.create', created.email, 'ok', `role=${created.role}`);
  return Response.json(created, { status: 201 });
});
