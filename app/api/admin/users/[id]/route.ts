import { changeUser } from '@/app/_server/admin-users';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { UpdateUserSchema } from '@/lib/schemas/users';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const { id } = await params;
  const patch = await readJson(req, UpdateUserSchema);
  const row = await changeUser(admin, id, patch);
  await audit(admin, 'user.update', row.email, 'ok', JSON.stringify(patch));
  return Response.json(row);
});
