import { expect, test } from '@playwright/test';
import { ADMIN, ensureUser, originHeaders, SUITE_CHAT_RATE, signIn } from './helpers';

const RATE = { name: 'Rate Tester', email: 'rate@example.com', password: 'rate-password-1' };
const body = (id: string, text: string) => ({
  id,
  message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text }] },
});

test('S17: per-user rate limit and concurrent-turn cap answer 429 with Retry-After; other users are unaffected', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, RATE);
  const user = await browser.newContext();
  await signIn(user, RATE);
  const h = originHeaders();
  try {
    // At most 2 answers at once: two hanging turns hold the slots, the third is refused at once.
    await admin.request.patch('/api/admin/settings', { data: { maxConcurrentTurns: 2 }, headers: h });
    const hangingIds = [1, 2].map((i) => `hang-${i}-${Date.now()}`);
    const hanging = hangingIds.map((hangId) =>
      user.request
        .post('/api/chat', { data: body(hangId, '[[hang]]'), headers: h, timeout: 60_000 })
        .catch(() => null),
    );
    // Both are admitted (their questions stored) before the third is sent: sent alongside them, the
    // third could take a slot first and leave one of them refused.
    await expect
      .poll(async () =>
        Promise.all(
          hangingIds.map(async (id) => (await user.request.get(`/api/conversations/${id}`)).status()),
        ),
      )
      .toEqual([200, 200]);
    const third = await user.request.post('/api/chat', {
      data: body(`third-${Date.now()}`, 'third'),
      headers: h,
    });
    expect(third.status()).toBe(429);
    expect(third.headers()['retry-after']).toBe('5');
    expect((await third.json()).error.message).toBe(
      'You already have 2 answers in progress. Wait for one to finish.',
    );
    // Someone else still chats normally meanwhile.
    const other = await admin.request.post('/api/chat', {
      data: body(`admin-${Date.now()}`, 'still fine'),
      headers: h,
    });
    expect(other.status()).toBe(200);
    const stream = await other.text();
    const text = stream
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string })
      .filter((chunk) => chunk.type === 'text-delta')
      .map((chunk) => chunk.delta)
      .join('');
    expect(text).toContain('still fine');
    // A turn outlives its tab: closing it does not end the hanging turns, Stop does (and frees their slots).
    for (const hangId of hangingIds) {
      expect(
        await (await user.request.post(`/api/chat/${hangId}/stop`, { headers: h })).json(),
      ).toMatchObject({
        stopped: true,
      });
    }
    await user.close();
    void hanging;

    // A request budget per minute.
    const again = await browser.newContext();
    await signIn(again, RATE);
    await admin.request.patch('/api/admin/settings', {
      data: { maxConcurrentTurns: 10, chatRequestsPerMinute: 3 },
      headers: h,
    });
    const statuses: number[] = [];
    let retryAfter = '';
    for (let i = 0; i < 5; i++) {
      const res = await again.request.post('/api/chat', {
        data: body(`burst-${i}-${Date.now()}`, `burst ${i}`),
        headers: h,
      });
      statuses.push(res.status());
      if (res.status() === 429) {
        retryAfter = res.headers()['retry-after'] ?? '';
        expect((await res.json()).error.code).toBe('rate_limited');
      } else await res.body();
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    await again.close();
  } finally {
    await admin.request.patch('/api/admin/settings', {
      data: { maxConcurrentTurns: 10, chatRequestsPerMinute: SUITE_CHAT_RATE },
      headers: h,
    });
    await admin.close();
  }
});
