import * as z from '@/lib/zod';
import { hasNoNul, NO_NUL } from '@/lib/stored-text';

export const RoleSchema = z.enum(['user', 'admin']);

export const CreateUserSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(100).refine(hasNoNul, NO_NUL),
    email: z.email('must be an email address').max(254),
    password: z.string().min(8, 'must be at least 8 characters').max(128),
    role: RoleSchema.default('user'),
  })
  .strict();
export type CreateUser = z.infer<typeof CreateUserSchema>;

export const UpdateUserSchema = z
  .object({ role: RoleSchema.optional(), disabled: z.boolean().optional() })
  .strict();
export type UpdateUser = z.infer<typeof UpdateUserSchema>;
