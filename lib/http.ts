import 'server-only';
import type * as z from '@/lib/zod';
import { AppError, type ErrorBody, STATUS_BY_CODE } from '@/lib/errors';
import { trustedOrigins } from '@/lib/env';
import { localizeErrorMessage } from '@/lib/i18n/error-messages';
import { isLocale, LOCALE_COOKIE, type Locale, negotiateLocale } from '@/lib/i18n/locales';
import { loggable } from '@/lib/loggable';

export const MAX_BODY_BYTES = 1024 * 1024;

export function json(data: unknown, init?: ResponseInit): Response {
  return Response.json(data, init);
}

/**
 * Maps any thrown value to the SPEC §4 error shape, its message and field messages in `locale` (the
 * known ones; see lib/i18n/error-messages.ts); unknown errors are logged, never echoed.
 */
export function errorResponse(err: unknown, locale: Locale = 'en'): Response {
  const say = (text: string) => localizeErrorMessage(text, locale);
  if (err instanceof AppError) {
    const fields = err.fields && Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k, say(v)]));
    const body: ErrorBody = {
      error: { code: err.code, message: say(err.message), ...(fields && { fields }) },
    };
    return Response.json(body, { status: STATUS_BY_CODE[err.code], headers: err.headers });
  }
  console.error('[http] unexpected error', loggable(err));
  const body: ErrorBody = { error: { code: 'internal', message: say('Something went wrong on our side.') } };
  return Response.json(body, { status: 500 });
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

/** Wraps a route handler so that every failure becomes a JSON error answer, in the request's language. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await handler(req, ctx);
    } catch (err) {
      return errorResponse(err, await localeOf(req));
    }
  };
}

/**
 * Refuses (400) an address holding U+0000, on either database: a Postgres text parameter cannot hold it, so
 * looking up such an id or query was a 500 there (lib/stored-text.ts). Called once the caller is known
 * (requireUser, requireAdmin, a public lookup): a signed-out request is still a 401 first.
 */
export function assertNoNulAddress(req: Request): void {
  const { pathname, search } = new URL(req.url);
  if (`${pathname}${search}`.includes('%00'))
    throw new AppError('bad_request', 'The address must not contain the NUL character (U+0000).');
}

/** The request's language (the user's pick, the `locale` cookie, else Accept-Language; app/_server/locale.ts). */
async function localeOf(req: Request): Promise<Locale> {
  try {
    return await (await import('@/app/_server/locale')).requestLocale();
  } catch {
    // Outside a Next request (a handler called directly): the request's own headers decide.
    const cookie = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`).exec(
      req.headers.get('cookie') ?? '',
    )?.[1];
    return isLocale(cookie) ? cookie : negotiateLocale(req.headers.get('accept-language'));
  }
}

/** Reads at most `maxBytes` of the body, so an oversized upload is refused without buffering it all. */
export async function readBodyText(req: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const bytes = await readBodyBytes(req, maxBytes);
  try {
    // JSON and form bodies are UTF-8 (RFC 8259): bytes that are not are refused, never stored as U+FFFD.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('bad_request', 'Request body is not valid UTF-8.');
  }
}

/** The body's bytes, at most `maxBytes` (else 413, `tooLarge` as the message), read without buffering more. */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  tooLarge = `Request body is over ${maxBytes} bytes.`,
): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new AppError('payload_too_large', tooLarge);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new AppError('payload_too_large', tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '(body)';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown, what = 'request'): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const fields = zodFields(result.error);
    const first = Object.entries(fields)[0];
    throw new AppError(
      'bad_request',
      `Invalid ${what}: ${first ? `${first[0]}: ${first[1]}` : 'bad input'}`,
      fields,
    );
  }
  return result.data;
}

/** Parses a JSON body with a byte cap and a zod schema; every failure is a 400/413 naming the problem. */
export async function readJson<T extends z.ZodType>(
  req: Request,
  schema: T,
  maxBytes = MAX_BODY_BYTES,
): Promise<z.infer<T>> {
  return parseBody(schema, await readBodyText(req, maxBytes));
}

function parseBody<T extends z.ZodType>(schema: T, text: string): z.infer<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'Request body is not valid JSON.');
  }
  return parseWith(schema, value, 'request body');
}

/**
 * Like readJson for an optional body: an absent or empty body gives `schema.parse({})`. Whether there is
 * a body is read from the body itself, not from Content-Length (a chunked body has none).
 */
export async function readOptionalJson<T extends z.ZodType>(
  req: Request,
  schema: T,
  maxBytes = MAX_BODY_BYTES,
): Promise<z.infer<T>> {
  const text = await readBodyText(req, maxBytes);
  return text.trim() ? parseBody(schema, text) : parseWith(schema, {}, 'request body');
}

/**
 * The version an edit form was opened at: its `If-Match` header, the record's `updatedAt` (an ISO date,
 * quotes allowed). Null without the header (or `*`): the write does not depend on a version.
 */
export function readIfMatch(req: Request): Date | null {
  const raw = req.headers
    .get('if-match')
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  if (!raw || raw === '*') return null;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()))
    throw new AppError('bad_request', 'If-Match must be the updatedAt the record was read at.');
  return at;
}

/** State-changing requests must come from our own origin (CSRF defence beside SameSite cookies). */
export function assertSameOrigin(req: Request): void {
  const origin = req.headers.get('origin');
  if (!origin || !trustedOrigins().includes(origin)) {
    throw new AppError('forbidden', 'Cross-origin request refused.');
  }
}

/**
 * A GET that starts work for the user (their MCP connections: stdio children, sign-ins) answers only
 * requests a browser marks as coming from the app itself or from the person (the address bar): a
 * cross-site link or embed, which carries the SameSite=Lax session cookie on a top-level navigation,
 * is refused. Clients that send no Sec-Fetch-Site (scripts, older browsers) are not led by another site.
 */
export function assertNotCrossSite(req: Request): void {
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') {
    throw new AppError('forbidden', 'Cross-site request refused.');
  }
}
