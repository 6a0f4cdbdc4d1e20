import 'server-only';
import { closeUserConnections } from '@/app/_server/mcp';
import { getDb } from '@/db/client';
import { conversationIdsOf, deleteUserAndData, isLastAdmin } from '@/db/queries/account';
import { blobsOfUser } from '@/db/queries/files';
import { getAuth } from '@/app/_server/auth';
import { removeUnusedBlobs } from '@/app/_server/files';
import { invalidateUser } from '@/app/_server/hot-cache';
import { localTurnsOf, stopTurn } from '@/app/_server/running-turns';
import type { SessionUser } from '@/app/_server/session';
import { AppError, notFound } from '@/lib/errors';
import type { AccountSession } from '@/lib/schemas/account';

/**
 * The status and code of an error the auth library threw (its APIError; read by shape, since the server
 * bundle may hold more than one copy of the class, so `instanceof` is not reliable).
 */
function authError(err: unknown): { status?: unknown; code?: unknown } {
  if (typeof err !== 'object' || err === null) return {};
  const e = err as { status?: unknown; body?: { code?: unknown } };
  return { status: e.status, code: e.body?.code };
}

/** The id of the session a request is signed in with. */
async function currentSessionId(headers: Headers): Promise<string | null> {
  const found = await (await getAuth()).api.getSession({ headers });
  return found?.session.id ?? null;
}

/** The user's unexpired sessions, newest activity first; tokens never leave the server. */
export async function listAccountSessions(user: SessionUser, headers: Headers): Promise<AccountSession[]> {
  const ctx = await (await getAuth()).$context;
  const current = await currentSessionId(headers);
  const now = Date.now();
  return (await ctx.internalAdapter.listSessions(user.id))
    .filter((s) => new Date(s.expiresAt).getTime() > now)
    .sort((a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime())
    .map((s) => ({
      id: s.id,
      userAgent: s.userAgent ?? null,
      createdAt: new Date(s.createdAt).toISOString(),
      lastActive: new Date(s.updatedAt).toISOString(),
      current: s.id === current,
    }));
}

/** Signs out one of the user's own sessions (another user's session id is a 404). */
export async function revokeAccountSession(user: SessionUser, headers: Headers, id: string): Promise<void> {
  const ctx = await (await getAuth()).$context;
  const target = (await ctx.internalAdapter.listSessions(user.id)).find((s) => s.id === id);
  if (!target) throw notFound('Session not found.');
  await (await getAuth()).api.revokeSession({ body: { token: target.token }, headers });
}

/** Signs out every session of the user but this one. */
export async function revokeOtherAccountSessions(headers: Headers): Promise<void> {
  await (await getAuth()).api.revokeOtherSessions({ headers });
}

/** The user's own name (through the auth library, which also refreshes the session's user). */
export async function renameAccount(user: SessionUser, headers: Headers, name: string): Promise<void> {
  await (await getAuth()).api.updateUser({ body: { name }, headers });
  invalidateUser(user.id);
}

/**
 * A password change: the current password is required, and every other session is signed out (this
 * one gets a fresh session cookie).
 */
export async function changeAccountPassword(
  headers: Headers,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  try {
    await (await getAuth()).api.changePassword({ body: { ...input, revokeOtherSessions: true }, headers });
  } catch (err) {
    const { status, code } = authError(err);
    if (code === 'INVALID_PASSWORD')
      throw new AppError('bad_request', 'The current password is wrong.', {
        currentPassword: 'is wrong',
      });
    if (status === 'BAD_REQUEST')
      throw new AppError('bad_request', 'The password could not be changed.', {
        newPassword: 'was refused',
      });
    throw err;
  }
}

/**
 * Stops every running answer of the user (each stored as interrupted), on any instance; here also the
 * answer of a new chat whose first message is not stored yet (it waits for its preparation).
 */
export async function stopTurnsOfUser(userId: string): Promise<void> {
  const ids = new Set([...localTurnsOf(userId), ...(await conversationIdsOf(getDb(), userId))]);
  await Promise.all([...ids].map((id) => stopTurn(id)));
}

const lastAdminError = () =>
  new AppError(
    'conflict',
    'You are the last admin. Make another user an admin before you delete this account.',
  );

/**
 * Deletes a user and all their data: running turns are stopped, their MCP connections closed, then
 * conversations, shares, uploaded files, MCP sign-ins, sessions and credentials go in one transaction
 * (and the files' bytes from the data folder). The last admin
 * cannot be deleted (409).
 */
export async function deleteAccountAndData(userId: string): Promise<void> {
  const db = getDb();
  // The last admin is refused before anything else happens (their running answers go on).
  if (await isLastAdmin(db, userId)) throw lastAdminError();
  await stopTurnsOfUser(userId);
  const blobs = await blobsOfUser(db, userId);
  const outcome = await deleteUserAndData(db, userId);
  if (outcome === 'last-admin') throw lastAdminError();
  if (outcome === 'gone') throw notFound('User not found.');
  invalidateUser(userId);
  await closeUserConnections(userId);
  // Their uploads' rows went with the account (foreign key); the bytes no other user's file keeps go now.
  await removeUnusedBlobs(blobs);
}

/** An admin sets a user's password; every session of the user ends. */
export async function resetUserPassword(userId: string, password: string): Promise<void> {
  const ctx = await (await getAuth()).$context;
  const hash = await ctx.password.hash(password);
  const credential = await ctx.internalAdapter.findCredentialAccount(userId);
  if (credential) await ctx.internalAdapter.updatePassword(userId, hash);
  else
    await ctx.internalAdapter.linkAccount({
      userId,
      providerId: 'credential',
      accountId: userId,
      password: hash,
    });
  await signOutUserEverywhere(userId);
}

/** An admin signs a user out everywhere. */
export async function signOutUserEverywhere(userId: string): Promise<void> {
  const ctx = await (await getAuth()).$context;
  await ctx.internalAdapter.deleteUserSessions(userId);
}

/** Whether the user has a password (an account made through single sign-on may have none). */
export async function hasPassword(userId: string): Promise<boolean> {
  const ctx = await (await getAuth()).$context;
  return Boolean((await ctx.internalAdapter.findCredentialAccount(userId))?.password);
}
