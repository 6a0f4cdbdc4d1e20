import { changeAccountPassword } from '@/app/_server/account';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ChangePasswordSchema } from '@/lib/schemas/account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * `{ currentPassword, newPassword }`: changes the password; every other session is signed out and this
 * one continues with a fresh session cookie. A wrong current password is a 400 naming the field.
 */
export const POST = route(async (req) => {
  await requireUser(req);
  const input = await readJson(req, ChangePasswordSchema);
  await changeAccountPassword(req.headers, input);
  return Response.json({ changed: true });
});
