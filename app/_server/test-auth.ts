// Test helpers: requests as a browser on the app's own page (`app`: its origin) sends them, to the auth
// library's endpoints through the gate and to the app's routes. Modules are imported when first used, so a
// test file sets DATABASE_PATH and APP_URL before anything opens the database.
import assert from 'node:assert/strict';

/** POST to the auth endpoint `path` (e.g. `/sign-up/email`) through the gate; an error answered as the route does. */
export async function authPost(app: string, path: string, body: unknown, cookie = ''): Promise<Response> {
  const { handleAuthRequest } = await import('@/app/_server/auth-gate');
  const { errorResponse } = await import('@/lib/http');
  return handleAuthRequest(appRequest(app, cookie, 'POST', `/api/auth${path}`, body)).catch((err) =>
    errorResponse(err),
  );
}

/** The cookies a response set (the session of a sign-up or sign-in), as a Cookie header. */
export function sessionCookie(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Signs up (the first account is the admin; later ones need sign-up open) and returns the session cookie. */
export async function signUp(app: string, name: string, email: string): Promise<string> {
  const res = await authPost(app, '/sign-up/email', { name, email, password: `${name}-password-1` });
  assert.equal(res.status, 200, await res.clone().text());
  return sessionCookie(res);
}

/** A request to the app at `path`, from its own page (Origin), with `cookie` and a JSON body if given. */
export function appRequest(
  app: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Request {
  return new Request(`${app}${path}`, {
    method,
    headers: { origin: app, cookie, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
