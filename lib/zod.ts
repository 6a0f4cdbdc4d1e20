/**
 * The part of zod this app uses, imported as `import * as z from '@/lib/zod'` and written `z.object(…)`
 * as with zod's own `z`.
 *
 * zod's `z` is one namespace object holding all of zod, its 60 error-message locales among it (~40 kB
 * gzipped); a bundler keeps every member of a namespace that is used as an object, so each browser page
 * that validated anything shipped them all. These named re-exports are resolved member by member, and the
 * chat page ships only what is listed here. A member missing here is a type error where it is used: add it.
 */
export {
  array,
  boolean,
  coerce,
  discriminatedUnion,
  email,
  enum,
  instanceof,
  literal,
  looseObject,
  NEVER,
  number,
  object,
  record,
  string,
  union,
  unknown,
  url,
  ZodError,
  ZodType,
} from 'zod';
export type { infer } from 'zod';
