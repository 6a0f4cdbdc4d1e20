import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  fromAddress,
  originHeaders,
  send,
  signIn,
} from './helpers';

/** A 404 page with what differs per request (the probed token, the CSP nonce) taken out, so answers can be compared. */
function normalized(html: string, token: string, csp = ''): string {
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  return (nonce ? html.replaceAll(nonce, 'NONCE') : html).replaceAll(token, 'TOKEN');
}

test('S13: probing 1,000 random share ids without a session is rate limited per address; every other answer is the same 404', async ({
  page,
}) => {
  // Each probing client connects from its own loopback address (a forged X-Forwarded-For would not
  // count), so the suite's own address keeps its budget for the other share tests.
  const prober = fromAddress('127.0.0.13');
  const bystander = fromAddress('127.0.0.7');
  // A real share, made before the probing.
  await signIn(page, ADMIN);
  await page.goto('/');
  await send(page, 'A conversation to share');
  await expect(assistantMessages(page).last()).toContainText('You said: A conversation to share');
  const id = conversationIdFromUrl(page);
  const share = await page.request.post(`/api/conversations/${id}/share`, {
    data: {},
    headers: originHeaders(),
  });
  expect(share.status()).toBe(201);
  const { token: real } = (await share.json()) as { token: string };

  const statuses = new Map<number, number>();
  const notFoundBodies = new Set<string>();
  let retryAfter = '';
  const started = Date.now();
  for (let i = 0; i < 1000; i++) {
    const token = randomBytes(24).toString('base64url');
    const res = await prober(`/share/${token}`, { headers: { 'x-forwarded-for': `203.0.113.${i % 250}` } });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const body = await res.text();
    if (res.status === 404) {
      notFoundBodies.add(normalized(body, token, res.headers.get('content-security-policy') ?? ''));
      expect(res.headers.get('x-robots-tag')).toContain('noindex');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('set-cookie')).toBeNull();
    } else if (res.status === 429) retryAfter = res.headers.get('retry-after') ?? '';
  }
  const seconds = (Date.now() - started) / 1000;
  test.info().annotations.push({
    type: 'measured',
    description: `${JSON.stringify(Object.fromEntries(statuses))} in ${seconds.toFixed(1)} s`,
  });
  // Only two answers: the uniform 404, and 429 once the burst (60) is spent; one more per second after that.
  expect([...statuses.keys()].sort()).toEqual([404, 429]);
  const served = statuses.get(404) ?? 0;
  expect(served).toBeGreaterThanOrEqual(60);
  expect(served).toBeLessThanOrEqual(60 + Math.ceil(seconds) + 1);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(notFoundBodies.size).toBe(1);

  // The limit is per address and covers real tokens too: right after the flood (one token a second
  // refills) at most one of three lookups of the real link gets through for the prober, while
  // another address and the owner open it normally.
  const again = await Promise.all([1, 2, 3].map(() => prober(`/share/${real}`)));
  expect(again.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);
  expect((await bystander(`/share/${real}`)).status).toBe(200);
  expect((await page.request.get(`/share/${real}`)).status()).toBe(200);
});
