import 'server-only';
import { AppError } from '@/lib/errors';
import { IdleMemoryRelease } from '@/lib/idle-memory';
import { processState } from '@/lib/process-state';
import { concurrencyGate, requestLimiter } from '@/lib/shared/limits';

/** Memory grown under load is given back 5 s after the last answer ends (see lib/idle-memory.ts). */
const IDLE_MEMORY_RELEASE_MS = 5000;

/**
 * Per-user limits on chat turns: requests per minute (429 with Retry-After) and answers streaming at
 * once. Returns the release of the turn's slot (call it once, when the answer is stored).
 */
export async function admitTurn(userId: string, perMinute: number, concurrent: number): Promise<() => void> {
  // Both asked at once (with Redis, in one round trip); a slot taken for a refused request is given back.
  const [taken, acquired] = await Promise.allSettled([
    takeChatRequest(userId, perMinute),
    processState('turnGate', () => concurrencyGate('turns')).acquire(userId, concurrent),
  ]);
  if (taken.status === 'rejected') {
    if (acquired.status === 'fulfilled') acquired.value?.();
    throw taken.reason;
  }
  if (acquired.status === 'rejected') throw acquired.reason;
  const release = acquired.value;
  if (!release) {
    throw new AppError(
      'rate_limited',
      `You already have ${concurrent} answers in progress. Wait for one to finish.`,
      undefined,
      { 'Retry-After': '5' },
    );
  }
  const quiet = processState('idleMemory', () => new IdleMemoryRelease(IDLE_MEMORY_RELEASE_MS)).begin();
  return () => {
    release();
    quiet();
  };
}

/** One request of the user's per-minute allowance (a turn, or a sampling request run for one); 429 when spent. */
export async function takeChatRequest(userId: string, perMinute: number): Promise<void> {
  const rate = processState('chatRate', () => ({
    perMinute,
    window: requestLimiter('chat', perMinute, 60_000),
  }));
  if (rate.perMinute !== perMinute) {
    rate.perMinute = perMinute;
    rate.window = requestLimiter('chat', perMinute, 60_000);
  }
  const taken = await rate.window.take(userId);
  if (!taken.ok) {
    throw new AppError('rate_limited', `Too many messages. Try again in ${taken.retryAfterS} s.`, undefined, {
      'Retry-After': String(taken.retryAfterS),
    });
  }
}
