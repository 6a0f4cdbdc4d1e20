import type { Approval } from '@/lib/schemas/chat';
import { AppError } from '@/lib/errors';

type Part = {
  type: string;
  state?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
  toolMetadata?: unknown;
};

/**
 * Applies a person's answers to the pending approvals of the stored answer. Only ids the server
 * itself asked about count; the client's copy of the message is never trusted. An approval is answered
 * once: an answer to a call that is no longer awaiting approval (answered before, from another tab or
 * a replayed request) is a 409 and changes nothing, so a tool never runs twice for one approval.
 */
export function applyApprovals<P extends Part>(
  parts: P[],
  approvals: Approval[],
): { parts: P[]; alwaysAllow: string[] } {
  const byId = new Map(approvals.map((a) => [a.id, a]));
  const seen = new Set<string>();
  const alwaysAllow: string[] = [];
  const next = parts.map((part) => {
    const answer = part.approval ? byId.get(part.approval.id) : undefined;
    if (!answer || !part.approval) return part;
    seen.add(answer.id);
    if (part.state !== 'approval-requested') {
      throw new AppError('conflict', 'This tool call was already answered.', { approvals: answer.id });
    }
    const meta = part.toolMetadata as { server?: unknown; tool?: unknown } | undefined;
    if (
      answer.approved &&
      answer.always &&
      typeof meta?.server === 'string' &&
      typeof meta.tool === 'string'
    ) {
      alwaysAllow.push(`${meta.server}/${meta.tool}`);
    }
    return {
      ...part,
      state: 'approval-responded',
      approval: { ...part.approval, approved: answer.approved, reason: answer.reason },
    };
  });
  const unknown = approvals.filter((a) => !seen.has(a.id));
  if (unknown.length) {
    throw new AppError('bad_request', 'No pending tool call has that approval id.', {
      approvals: unknown.map((a) => a.id).join(', '),
    });
  }
  return { parts: next, alwaysAllow };
}

/** Why a call still awaiting approval was not run when the user sent a new message instead. */
export const SKIPPED_APPROVAL = 'Skipped: you sent a new message.';

/** Whether an answer still has tool calls waiting for a person's approval. */
export function hasPendingApprovals(parts: unknown[]): boolean {
  return (parts as Part[]).some((p) => p.state === 'approval-requested');
}

/** Resolves every pending approval as denied with `reason` (the calls never run). */
export function skipApprovals<P>(parts: P[], reason: string): P[] {
  return parts.map((p) => {
    const part = p as Part;
    if (part.state !== 'approval-requested' || !part.approval) return p;
    return { ...part, state: 'output-denied', approval: { ...part.approval, approved: false, reason } } as P;
  });
}
