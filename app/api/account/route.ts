import { deleteAccountAndData, renameAccount } from '@/app/_server/account';
import { getAuth } from '@/app/_server/auth';
import { audit } from '@/app/_server/audit';
import { requireUser } from '@/app/_server/session';
import { AppError } from '@/lib/errors';
import { readJson, route } from '@/lib/http';
import { DeleteAccountSchema, UpdateAccountSchema } from '@/lib/schemas/account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The signed-in user's own account. */
export const GET = route(async (req) => {
  const user = await requireUser(req);
  return Response.json(user);
});

/** `{ name }`: the user's own name. */
export const PATCH = route(async (req) => {
  const user = await requireUser(req);
  const { name } = await readJson(req, UpdateAccountSchema);
  await renameAccount(user, req.headers, name);
  return Response.json({ ...user, name });
});

/**
 * `{ confirm: <the account's email> }`: deletes the account and all its data (conversations, shares,
 * MCP sign-ins, sessions). The last admin cannot delete themself (409).
 */
export const DELETE = route(async (req) => {
  const user = await requireUser(req);
  const { confirm } = await readJson(req, DeleteAccountSchema);
  if (confirm.trim().toLowerCase() !== user.email.toLowerCase())
    throw new AppError('bad_request', 'Type your email address to confirm.', {
      confirm: 'must be your email address',
    });
  try {
    await deleteAccountAndData(user.id);
  } catch (err) {
    await audit(
      user,
      'account.delete',
      user.email,
      'denied',
      err instanceof AppError ? err.message : undefined,
    );
    throw err;
  }
  await audit(user, 'account.delete', user.email, 'ok');
  const ctx = await (await getAuth()).$context;
  const res = new Response(null, { status: 204 });
  for (const cookie of [ctx.authCookies.sessionToken, ctx.authCookies.sessionData]) {
    const secure = cookie.attributes.secure ? '; Secure' : '';
    res.headers.append('Set-Cookie', `${cookie.name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
  }
  return res;
});
