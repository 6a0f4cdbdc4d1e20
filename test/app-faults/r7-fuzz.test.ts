/**
 * R7 (SECURITY-CASES.md), the route half: a fuzzer sends missing, malformed, wrongly typed and huge
 * (20 MB) bodies, wrong content types, unexported methods and bad ids to every API route, signed out,
 * as a user and as an admin. Safe state: every answer is a 4xx (never a 5xx, a reset or a hang), and the
 * same server process is still alive and healthy afterwards. FUZZ_DUMP=<file> writes every request and
 * its answer to that file.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import {
  apiRoutes,
  type BodyCase,
  concretePaths,
  HUGE_BODIES,
  METHODS,
  type Outcome,
  SMALL_BODIES,
  send,
} from './fuzz';
import {
  addUser,
  type Auth,
  chat,
  chatBody,
  newId,
  request,
  ROOT,
  type Stack,
  startStack,
  streamedText,
  testServer,
} from './harness';

let stack: Stack;
let admin: Auth;
let user: Auth;
/** Ids of things that exist, for the routes with a dynamic segment (bad bodies must be refused there too). */
let real: (pattern: string) => string | null = () => null;

before(async () => {
  ({ stack, admin } = await startStack(
    { tests: testServer() },
    { name: 'R7 Admin', email: 'r7@example.com', password: 'r7-password-1' },
  ));
  const added = await addUser(stack, admin, {
    name: 'R7 User',
    email: 'r7-user@example.com',
    password: 'r7-password-2',
  });
  user = added.auth;

  const conversationId = newId('r7-conv');
  assert.equal((await chat(stack, admin, chatBody(conversationId, newId('m'), 'hello'))).status, 200);
  const share = await request(`${stack.appUrl}/api/conversations/${conversationId}/share`, 'POST', admin, {});
  assert.equal(share.status, 201, share.body);
  const provider = await request(`${stack.appUrl}/api/admin/providers`, 'POST', admin, {
    name: 'Fuzz',
    baseURL: `${stack.fakeUrl}/v1`,
    models: ['fake-model'],
  });
  assert.equal(provider.status, 201, provider.body);
  const servers = JSON.parse((await request(`${stack.appUrl}/api/mcp/servers`, 'GET', admin)).body) as {
    items: Array<{ id: string; name: string }>;
  };
  const ids: Array<[string, string]> = [
    ['/api/conversations/', conversationId],
    ['/api/admin/providers/', JSON.parse(provider.body).id],
    ['/api/admin/users/', added.id],
    ['/api/mcp/servers/', servers.items.find((s) => s.name === 'tests')!.id],
  ];
  const token = JSON.parse(share.body).token as string;
  real = (pattern) => {
    const id = ids.find(([prefix]) => pattern.startsWith(prefix))?.[1];
    const path = pattern
      .replace('[id]', id ?? '[id]')
      .replace('[token]', token)
      .replace('[tool]', 'add');
    return path.includes('[') ? null : path;
  };
});
after(() => stack?.stop());

type Shot = {
  who: string;
  method: string;
  path: string;
  body: BodyCase;
  exported: boolean;
  pattern: string;
  readsBody: boolean;
  badId: boolean;
};
type Result = Shot & Outcome;

/** Runs `shots` with a few in flight at once. */
async function fire(shots: Shot[], parallel = 6): Promise<Result[]> {
  const results: Result[] = [];
  let next = 0;
  const headersFor = (who: string): Record<string, string> =>
    who === 'admin' ? admin : who === 'user' ? user : { origin: stack.appUrl };
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < shots.length) {
        const shot = shots[next++]!;
        results.push({
          ...shot,
          ...(await send(`${stack.appUrl}${shot.path}`, shot.method, headersFor(shot.who), shot.body)),
        });
      }
    }),
  );
  return results;
}

const describe = (r: Result) =>
  `${r.who} ${r.method} ${r.path.slice(0, 120)} [${r.body.label}] → ${r.status}${r.error ? ` (${r.error})` : ''} in ${r.ms} ms`;
/** Routes that answer without a session: health and readiness, the auth library's own endpoints. */
// The language choice is public too: signed-out pages (sign-in, shares) keep it in a cookie.
const PUBLIC = /^\/api\/(health|ready|auth\/|auth-form\/|account\/locale$)/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

test('R7: fuzzer sends missing, malformed, huge and wrongly typed bodies, wrong content types and bad ids to every API route: only 4xx answers, the process stays up', async () => {
  const routes = apiRoutes(ROOT);
  assert.ok(routes.length >= 30, `found ${routes.length} route files`);
  const serverPid = stack.serverPid();
  const shots: Shot[] = [];
  const huge: Shot[] = [];
  for (const { pattern, methods, readsBody } of routes) {
    for (const path of concretePaths(pattern)) {
      for (const method of METHODS) {
        const exported = methods.includes(method);
        const base = {
          method,
          path,
          exported,
          pattern,
          readsBody,
          badId: pattern.includes('[') && !pattern.includes('[...'),
        };
        if (!exported) {
          shots.push({ ...base, who: 'admin', body: SMALL_BODIES[2]! });
          continue;
        }
        shots.push(
          { ...base, who: 'anonymous', body: SMALL_BODIES[0]! },
          { ...base, who: 'anonymous', body: SMALL_BODIES[2]! },
        );
        shots.push(
          { ...base, who: 'user', body: SMALL_BODIES[2]! },
          { ...base, who: 'user', body: SMALL_BODIES[5]! },
        );
        for (const body of SMALL_BODIES) shots.push({ ...base, who: 'admin', body });
      }
    }
    // The same bodies where the id names something that exists (DELETE left out: it would remove it).
    const existing = pattern.includes('[') && !pattern.includes('[...') ? real(pattern) : null;
    for (const method of existing ? methods.filter((m) => m !== 'DELETE') : []) {
      const base = { method, path: existing!, exported: true, pattern, readsBody, badId: false };
      shots.push(
        { ...base, who: 'user', body: SMALL_BODIES[2]! },
        { ...base, who: 'user', body: SMALL_BODIES[5]! },
      );
      for (const body of SMALL_BODIES) shots.push({ ...base, who: 'admin', body });
    }
    // 20 MB bodies: per body-taking method, as the admin (who gets furthest), at an existing id when
    // there is one, and at every auth endpoint; sent first, before the auth library's rate limit is spent.
    const targets = pattern.includes('[...')
      ? concretePaths(pattern)
      : [existing ?? concretePaths(pattern)[0]!];
    for (const method of methods.filter((m) => BODY_METHODS.has(m))) {
      for (const path of targets) {
        for (const body of HUGE_BODIES)
          huge.push({
            who: 'admin',
            method,
            path,
            body,
            exported: true,
            pattern,
            readsBody,
            badId: path.includes('does-not-exist'),
          });
      }
    }
  }
  const started = performance.now();
  const results = await fire([...huge, ...shots]);
  const byStatus = new Map<string, number>();
  for (const r of results) byStatus.set(String(r.status), (byStatus.get(String(r.status)) ?? 0) + 1);
  console.log(
    `R7 fuzz: ${results.length} requests to ${routes.length} routes in ${Math.round(performance.now() - started)} ms; statuses ${JSON.stringify(Object.fromEntries(byStatus))}; slowest ${Math.max(...results.map((r) => r.ms))} ms`,
  );

  if (process.env.FUZZ_DUMP)
    (await import('node:fs')).writeFileSync(process.env.FUZZ_DUMP, results.map(describe).join('\n'));
  const broken = results.filter((r) => typeof r.status !== 'number' || r.status >= 500);
  assert.deepEqual(broken.map(describe), [], 'no 5xx, reset or hang');
  const notAllowed = results.filter((r) => !r.exported && r.status !== 405);
  assert.deepEqual(notAllowed.map(describe), [], 'methods a route does not export answer 405');
  const signedOut = results.filter((r) => r.who !== 'anonymous' && r.status === 401);
  assert.deepEqual(
    signedOut.map(describe),
    [],
    'the sessions held to the end (the inputs reached the handlers)',
  );
  const leaked = results.filter((r) => r.who === 'anonymous' && !PUBLIC.test(r.path) && r.status !== 401);
  assert.deepEqual(leaked.map(describe), [], 'signed out: 401 everywhere but the public routes');
  const forbidden = results.filter(
    (r) => r.who === 'user' && r.pattern.startsWith('/api/admin') && r.status !== 403,
  );
  assert.deepEqual(forbidden.map(describe), [], 'a user gets 403 from the admin API');
  // Every bad input is refused: an id that names nothing, whatever the method; a bad body, wherever a
  // body is read (an absent or empty body may be fine: some bodies are optional).
  const optional = new Set(['no body', 'empty JSON body']);
  const accepted = results.filter(
    (r) =>
      r.exported &&
      r.who !== 'anonymous' &&
      !PUBLIC.test(r.path) &&
      (r.badId || (BODY_METHODS.has(r.method) && r.readsBody && !optional.has(r.body.label))) &&
      (typeof r.status !== 'number' || r.status < 400 || r.status >= 500),
  );
  assert.deepEqual(accepted.map(describe), [], 'bad ids and bad bodies are refused with a 4xx');

  // Still the same process, healthy, and still answering chats.
  assert.ok(stack.appAlive(), `the app exited:\n${stack.appLog()}`);
  assert.equal(stack.serverPid(), serverPid, 'the server process is the one that was fuzzed');
  assert.equal((await request(`${stack.appUrl}/api/health`, 'GET')).status, 200);
  const turn = await chat(stack, admin, chatBody(newId('r7-after'), newId('m'), '[[say:still here]]'));
  assert.equal(turn.status, 200, turn.body.slice(0, 300));
  assert.equal(streamedText(turn.body), 'still here');
});
