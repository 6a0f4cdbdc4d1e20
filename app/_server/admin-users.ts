import 'server-only';
import { getDb } from '@/db/client';
import { getUserById, type PublicUser } from '@/db/queries/users';
import { getAuth } from '@/app/_server/auth';
import { AppError } from '@/lib/errors';
import type { CreateUser } from '@/lib/schemas/users';

/** An admin creates an account directly (works while self sign-up is closed). */
export async function createUserAsAdmin(input: CreateUser): Promise<PublicUser> {
  const ctx = await getAuth().$context;
  const email = input.email.toLowerCase();
  if (await ctx.internalAdapter.findUserByEmail(email)) {
    throw new AppError('conflict', 'A user with this email exists.', { email: 'is already registered' });
  }
  const created = await ctx.internalAdapter.createUser(
    { name: input.name, email, role: input.role },
    { method: 'admin' },
  );
  await ctx.internalAdapter.linkAccount({
    userId: created.id,
    providerId: 'credential',
    accountId: created.id,
    password: await ctx.password.hash(input.password),
  });
  const row = getUserById(getDb(), created.id);
  if (!row) throw new Error('created user not found');
  return row;
}
