import 'server-only';
import { AppError } from '@/lib/errors';
import type { ToolSettings } from '@/lib/schemas/chat';
import type { AppSettings } from '@/lib/schemas/settings';

/** The per-turn limits an admin sets (GET·PATCH /api/admin/settings): ceilings a conversation may lower, never raise. */
export type LimitCeilings = Pick<AppSettings, 'maxSteps' | 'maxToolCalls'>;

const LIMITS = ['maxSteps', 'maxToolCalls'] as const;

/**
 * The limit a turn runs with: the conversation's own when it has one, never above the admin's current
 * ceiling — so lowering the admin setting also caps conversations that stored a higher value earlier.
 */
export function effectiveLimit(own: number | null | undefined, ceiling: number): number {
  return Math.min(own ?? ceiling, ceiling);
}

/** A user may set a limit up to the admin's ceiling: above it is a 400 naming the field and the ceiling. */
export function assertWithinCeilings(settings: ToolSettings, ceilings: LimitCeilings): void {
  for (const field of LIMITS) {
    const value = settings[field];
    if (value != null && value > ceilings[field]) {
      throw new AppError('bad_request', `${field} must be at most ${ceilings[field]}, the admin's limit.`, {
        [field]: `must be at most ${ceilings[field]} (the admin's limit)`,
      });
    }
  }
}
