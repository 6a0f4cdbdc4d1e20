import 'server-only';
import { AppError } from '@/lib/errors';
import { processState } from '@/lib/process-state';
import { requestLimiter } from '@/lib/shared/limits';

/** Imports (previews included) per admin per minute: far above what a person clicks, low enough to stop a script. */
export const IMPORTS_PER_MINUTE = 30;

/** Counts one import request of this admin; 429 with Retry-After when over the limit. */
export async function admitImport(adminId: string): Promise<void> {
  const limiter = processState('importLimiter', () => requestLimiter('import', IMPORTS_PER_MINUTE, 60_000));
  const rate = await limiter.take(adminId);
  if (!rate.ok) {
    throw new AppError('rate_limited', `Too many imports. Try again in ${rate.retryAfterS} s.`, undefined, {
      'Retry-After': String(rate.retryAfterS),
    });
  }
}
