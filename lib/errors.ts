/** The one error type of the app; lib/http.ts maps it to a status. Isomorphic. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);

/** Who else may have saved it: a personal assistant only its owner, in another tab. */
const BY = {
  server: 'by another admin or tab',
  provider: 'by another admin or tab',
  assistant: 'in another tab or by another admin',
  'sign-in provider': 'by another admin or tab',
  settings: 'by another admin or tab',
} as const;

/** 409 for an edit form saved over a newer version (its If-Match no longer matches): nothing is written. */
export const changedSince = (what: keyof typeof BY) =>
  new AppError(
    'conflict',
    `${what === 'settings' ? 'These settings were' : `This ${what} was`} changed since you opened it (${BY[what]}). Close the form and open it again to see the changes; your edits are still in the form.`,
  );

/** The JSON error body of SPEC §4. */
export type ErrorBody = { error: { code: ErrorCode; message: string; fields?: Record<string, string> } };
