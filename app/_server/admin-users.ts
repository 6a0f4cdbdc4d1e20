import 'server-only';
import { closeUserConnections } from '@/app/_server/mcp';
import { type AuthEndpointContext, runWithEndpointContext } from '@better-auth/core/context';
import { getDb } from '@/db/client';
import { getUserById, type PublicUser, updateUser } from '@/db/queries/users';
import { getAuth } from '@/app/_server/auth';
import { invalidateUser } from '@/app/_server/hot-cache';
import { stopTurnsOfUser } from '@/app/_server/account';
import type { SessionUser } from '@/app/_server/session';
import { AppError, notFound } from '@/lib/errors';
import type { CreateUser, UpdateUser } from '@/lib/schemas/users';

/**
 * An admin's change to a user; never to themselves (400: the app always keeps an admin), and refused (403)
 * when the admin was demoted or disabled since their request was let in, by another admin at the same moment.
 * Disabling a user stops their running answers (stored as interrupted, as Stop does): their tabs stop
 * streaming, and nothing more runs on their behalf; so does demoting an admin (a running answer would
 * otherwise go on calling the tools only admins may use). Disabling them or changing their role also ends
 * their per-user MCP connections: what they may use is decided anew on their next request.
 */
export async function changeUser(admin: SessionUser, id: string, patch: UpdateUser): Promise<PublicUser> {
  if (id === admin.id && (patch.disabled || patch.role === 'user'))
    throw new AppError('bad_request', 'You cannot disable or demote yourself.');
  const demoting = patch.role === 'user' && (await getUserById(getDb(), id))?.role === 'admin';
  const row = await updateUser(getDb(), admin.id, id, patch);
  if (row === 'not-admin') throw new AppError('forbidden', 'Admins only.');
  if (row === 'gone') throw notFound('User not found.');
  invalidateUser(id);
  if (patch.disabled || demoting) await stopTurnsOfUser(id);
  if (patch.disabled || patch.role) await closeUserConnections(id);
  return row;
}

/** An admin creates an account directly (works while self sign-up is closed). */
export async function createUserAsAdmin(input: CreateUser): Promise<PublicUser> {
  const ctx = await (await getAuth()).$context;
  const email = input.email.toLowerCase();
  const taken = () =>
    new AppError('conflict', 'A user with this email exists.', { email: 'is already registered' });
  if (await ctx.internalAdapter.findUserByEmail(email)) throw taken();
  // The library's user checks (validateUserInfo, app/_server/auth.ts) run only inside an endpoint's context.
  const created = await runWithEndpointContext({ context: ctx } as unknown as AuthEndpointContext, () =>
    ctx.internalAdapter.createUser({ name: input.name, email, role: input.role }, { method: 'admin' }),
  ).catch(async (err: unknown) => {
    // Created a moment ago by another request (a second admin, a double click): the same 409.
    if (await ctx.internalAdapter.findUserByEmail(email)) throw taken();
    throw err;
  });
  await ctx.internalAdapter.linkAccount({
    userId: created.id,
    providerId: 'credential',
    accountId: created.id,
    password: await ctx.password.hash(input.password),
  });
  const row = await getUserById(getDb(), created.id);
  if (!row) throw new Error('created user not found');
  return row;
}
