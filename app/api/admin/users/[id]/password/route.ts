import { resetUserPassword } from '@/app/_server/account';
import { audit } from '@/app/_server/audit';
import { invalidateUser } from '@/app/_server/hot-cache';
import { requireAdmin } from '@/app/_server/session';
import { getDb } from '@/db/client';
import { getUserById } from '@/db/queries/users';
import { notFound } from '@/lib/errors';
import { readJson, route } from '@/lib/http';
import { ResetPasswordSchema } from '@/lib/schemas/account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** `{ password }`: an admin sets a user's password; every session of the user ends. Audited. */
export const POST = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const { id } = await params;
  const target = await getUserById(getDb(), id);
  if (!target) throw notFound('User not found.');
  const { password } = await readJson(req, ResetPasswordSchema);
  await resetUserPassword(id, password);
  invalidateUser(id);
  await audit(admin, 'user.password-reset', target.email, 'ok');
  return Response.json({ reset: true });
});
