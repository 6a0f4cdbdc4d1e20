import * as z from '@/lib/zod';
import { hasNoNul, NO_NUL } from '@/lib/stored-text';

const password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters');

/** `PATCH /api/account`: the user's own name. */
export const UpdateAccountSchema = z
  .object({ name: z.string().trim().min(1, 'is required').max(100).refine(hasNoNul, NO_NUL) })
  .strict();

/** `POST /api/account/password`: the current password is required; other sessions are signed out. */
export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'is required').max(128, 'must be at most 128 characters'),
    newPassword: password,
  })
  .strict();

/** `DELETE /api/account`: the user types their email address to confirm. */
export const DeleteAccountSchema = z.object({ confirm: z.string().max(254) }).strict();

/** `POST /api/admin/users/[id]/password`: an admin sets a new password (every session of the user ends). */
export const ResetPasswordSchema = z.object({ password }).strict();

/** One of the user's sessions as the account page shows it (never the session token). */
export type AccountSession = {
  id: string;
  userAgent: string | null;
  createdAt: string;
  lastActive: string;
  current: boolean;
};
