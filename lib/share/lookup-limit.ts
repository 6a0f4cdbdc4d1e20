import { getEnv } from '@/lib/env';
import { clientAddress } from '@/lib/net/client-address';
import { processState } from '@/lib/process-state';
import type { Taken } from '@/lib/rate-limit';
import { tokenBuckets } from '@/lib/shared/limits';

/** Public share-page lookups per client IP: a burst of 60, then one a second (60 a minute). */
export const SHARE_LOOKUP_BURST = 60;
export const SHARE_LOOKUPS_PER_SECOND = 1;

/** Counts one share lookup; when over the limit, how many seconds until the next is allowed. */
export async function takeShareLookup(headers: Headers, now = Date.now()): Promise<Taken> {
  const buckets = processState('shareLookups', () =>
    tokenBuckets('share-lookup', SHARE_LOOKUP_BURST, SHARE_LOOKUPS_PER_SECOND),
  );
  return buckets.take(clientAddress(headers, getEnv().TRUST_PROXY), now);
}
