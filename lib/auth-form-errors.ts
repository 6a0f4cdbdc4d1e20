/**
 * Why a sign-in or sign-up failed, as the forms say it (catalog keys `auth.errors.<code>`), with or
 * without JavaScript. Never text taken from the server's answer or the URL: the auth library answers in
 * English, and a `?error=` code is all the no-JavaScript form carries back.
 */
export const AUTH_FORM_ERRORS = [
  'credentials',
  'rate',
  'closed',
  'disabled',
  'taken',
  'invalid',
  'failed',
] as const;
export type AuthFormError = (typeof AUTH_FORM_ERRORS)[number];

export const isAuthFormError = (value: unknown): value is AuthFormError =>
  typeof value === 'string' && (AUTH_FORM_ERRORS as readonly string[]).includes(value);

/** The library's codes for an email that has an account already (a sign-up a moment later, or the race's loser). */
const TAKEN = new Set(['USER_ALREADY_EXISTS', 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL']);

/** The failure of a form's request to /api/auth/<mode>/email: its status and the error code of its body. */
export function authFormError(mode: 'sign-in' | 'sign-up', status: number, code?: unknown): AuthFormError {
  if (status === 401) return 'credentials';
  if (status === 429) return 'rate';
  // Sign-up refused while closed; sign-in refused to a disabled account.
  if (status === 403) return mode === 'sign-up' ? 'closed' : 'disabled';
  if (status === 422 && typeof code === 'string' && TAKEN.has(code)) return 'taken';
  if (status === 400 || status === 413 || status === 422) return 'invalid';
  return 'failed';
}

/** The error code in an auth answer's body: the library's `{ code }`, or our API's `{ error: { code } }`. */
export function authErrorCode(body: unknown): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { code?: unknown; error?: { code?: unknown } };
  return b.code ?? b.error?.code;
}
