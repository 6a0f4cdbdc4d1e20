// Two sign-ups with one email at the same moment, sign-up open, through the auth library's endpoint as the
// route answers it: one registers, the other gets what a sign-up a moment later gets (the library's 422
// "already exists"), not its "Failed to create user" from the unique email. Runs on SQLite, then again on a
// real Postgres (db/dialect-harness.ts), whose unique violation has another shape and runs on two connections.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'sign-up-race-'));
const APP = 'http://127.0.0.1:3998';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { handleAuthRequest } = await import('@/app/_server/auth-gate');
const { getAuth } = await import('@/app/_server/auth');
const { errorResponse } = await import('@/lib/http');
const { databaseReady } = await import('@/db/client');
const { updateSettings } = await import('@/db/queries/settings');
const { processState } = await import('@/lib/process-state');
const { dialect, rerunFileOnPostgres } = await import('@/db/dialect-harness');

type SignUp = { name: string; email: string; password: string };

/** POST /api/auth/sign-up/email as the route answers it (thrown errors become their JSON answer). */
function signUp(body: SignUp): Promise<Response> {
  return handleAuthRequest(
    new Request(`${APP}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  ).catch((err) => errorResponse(err));
}

/**
 * The library's next `count` email look-ups wait for one another, so each of that many sign-ups finds
 * the email free before any of them writes it: the race, on every run.
 */
async function holdLookUps(count: number): Promise<() => void> {
  const adapter = (await (await getAuth()).$context).internalAdapter;
  const find = adapter.findUserByEmail;
  const arrived: Array<() => void> = [];
  adapter.findUserByEmail = async (...args) => {
    if (arrived.length < count) {
      await new Promise<void>((resolve) => {
        arrived.push(resolve);
        if (arrived.length === count) for (const go of arrived) go();
      });
    }
    return find(...args);
  };
  return () => {
    adapter.findUserByEmail = find;
  };
}

const scenarios: string[] = [];

before(async () => {
  await databaseReady();
  const admin = await signUp({ name: 'Ada', email: 'ada@example.com', password: 'admin-password-1' });
  assert.equal(admin.status, 200, await admin.clone().text());
  await updateSettings(await databaseReady(), { signupOpen: true });
});
after(async () => {
  await processState('db', () => {
    throw new Error('no database was opened');
  }).close();
  rmSync(dir, { recursive: true, force: true });
});

test(`${dialect}: two sign-ups with one email at once: one registers, the other is told it is taken`, async (t) => {
  scenarios.push(t.name);
  const bo = { name: 'Bo', email: 'bo@example.com', password: 'bo-password-1' };
  const release = await holdLookUps(2);
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  let answers: Response[];
  try {
    // Differently cased: the library compares emails lowercased.
    answers = await Promise.all([signUp(bo), signUp({ ...bo, email: 'Bo@Example.com' })]);
  } finally {
    release();
    console.error = error;
  }
  // The losing insert is logged (the library's "Failed to create user") without the email it carried.
  assert.ok(
    logged.some((line) => line.includes('Failed to create user')),
    logged.join('\n'),
  );
  assert.ok(!logged.some((line) => /bo@example\.com/i.test(line)), logged.join('\n'));
  const late = await signUp(bo);
  const lateText = await late.text();
  assert.equal(late.status, 422, lateText);
  assert.match(lateText, /USER_ALREADY_EXISTS/);

  const [won, lost] = answers[0]?.status === 200 ? answers : [...answers].reverse();
  assert.ok(won && lost);
  assert.equal(won.status, 200, await won.clone().text());
  const lostText = await lost.text();
  // The same answer as the later sign-up: status, body, and no session cookie.
  assert.equal(lost.status, late.status, lostText);
  assert.equal(lostText, lateText);
  assert.deepEqual(lost.headers.getSetCookie(), []);
  assert.equal(lost.headers.get('content-type'), late.headers.get('content-type'));
});

rerunFileOnPostgres(import.meta.url, scenarios);
