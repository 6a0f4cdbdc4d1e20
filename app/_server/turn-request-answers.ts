import 'server-only';
import { answerTurnRequest, holdsTurnRequest } from '@/app/_server/turn-requests';
import { AppError, type ErrorCode } from '@/lib/errors';
import { processState } from '@/lib/process-state';
import type { RequestAnswer } from '@/lib/schemas/turn-requests';
import { sharedBus } from '@/lib/shared/bus';
import { BusRequests } from '@/lib/shared/bus-requests';

/**
 * Answers to a running turn's requests (elicitation, sampling) from any instance. The request waits in
 * the process that runs the turn (turn-requests.ts), but the owner's answer may reach another one: the
 * workers of one box take connections in turn, and a turn resumed on another device reads it through
 * another instance. With REDIS_URL an answer this process does not hold is asked across the bus
 * (lib/shared/bus-requests.ts); the process holding it answers as it would locally (ok, 404, 409, 400).
 */

type Question = { userId: string; conversationId: string; requestId: string; answer: RequestAnswer };
type Outcome =
  | { ok: true }
  | { ok: false; code: ErrorCode; message: string; fields?: Record<string, string> };

declare module '@/lib/process-state' {
  interface OwnedSlots {
    turnRequestAnswers: BusRequests<Question, Outcome>;
  }
}

function answers(): BusRequests<Question, Outcome> | null {
  const bus = sharedBus();
  return bus
    ? processState('turnRequestAnswers', () => new BusRequests(bus, 'turn-requests', answerHere))
    : null;
}

/** Another instance's question: answered if the request waits here, silence otherwise. */
function answerHere({ userId, conversationId, requestId, answer }: Question): Outcome | null {
  if (!holdsTurnRequest(requestId)) return null;
  try {
    answerTurnRequest(userId, conversationId, requestId, answer);
    return { ok: true };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { ok: false, code: err.code, message: err.message, ...(err.fields && { fields: err.fields }) };
  }
}

/** POST /api/chat/[id]/requests/[requestId]: the answer, wherever its request waits. */
export async function answerTurnRequestAnywhere(
  userId: string,
  conversationId: string,
  requestId: string,
  answer: RequestAnswer,
): Promise<void> {
  const remote = answers();
  if (!remote || holdsTurnRequest(requestId))
    return answerTurnRequest(userId, conversationId, requestId, answer);
  const outcome = await remote.ask({ userId, conversationId, requestId, answer });
  // Nobody holds it: the local answer's 404.
  if (!outcome) return answerTurnRequest(userId, conversationId, requestId, answer);
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message, outcome.fields);
}

/** Startup, with REDIS_URL: answer other instances' questions about requests waiting here. */
export function serveTurnRequestAnswers(): void {
  void answers()
    ?.start()
    .catch((err) => console.error('[redis] could not listen for answers to turn requests', err));
}
