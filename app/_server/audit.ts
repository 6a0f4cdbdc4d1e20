import 'server-only';
import { getDb } from '@/db/client';
import { recordAudit } from '@/db/queries/audit';
import { loggable } from '@/lib/loggable';

type Actor = { id: string; email: string } | null;

/** Records an admin action or a refused attempt; never throws (auditing must not break the request). */
export async function audit(
  actor: Actor,
  action: string,
  target: string | null,
  outcome: 'ok' | 'denied' | 'failed' = 'ok',
  detail?: string,
): Promise<void> {
  try {
    await recordAudit(getDb(), {
      userId: actor?.id ?? null,
      email: actor?.email ?? null,
      action,
      target,
      outcome,
      detail: detail ?? null,
    });
  } catch (err) {
    console.error('[audit] could not record', action, loggable(err));
  }
}

/** A request's method and path, as the action of a refused attempt. */
export function requestAction(req: Request): string {
  return `${req.method} ${new URL(req.url).pathname}`;
}
