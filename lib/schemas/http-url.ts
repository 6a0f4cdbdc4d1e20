import * as z from '@/lib/zod';

/** An absolute http(s) URL, trimmed (anything else — javascript:, file:, ftp: — is refused). */
export const HttpUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');
