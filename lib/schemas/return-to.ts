import * as z from '@/lib/zod';
import { isSafeReturnPath, RETURN_TO_MAX } from '@/lib/safe-url';

/** `?next=` / a form's `next`: a path of this app to return to after signing in, else `/`. */
export const ReturnToSchema = z
  .string()
  .max(RETURN_TO_MAX)
  .refine(isSafeReturnPath, 'must be a path of this app')
  .catch('/');
