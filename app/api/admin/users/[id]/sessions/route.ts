import { signOutUserEverywhere } from '@/app/_server/account';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { getDb } from '@/db/client';
import { getUserById } from '@/db/queries/users';
import { notFound } from '@/lib/errors';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** An admin signs a user out everywhere (every session ends). Audited. */
export const DELETE = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const { id } = await params;
  const target = await getUserById(getDb(), id);
  if (!target) throw notFound('User not found.');
  await signOutUserEverywhere(id);
  await audit(admin, 'user.sign-out', target.email, 'ok');
  return new Response(null, { status: 204 });
});
