import { timingSafeEqual } from 'node:crypto';

/**
 * Comparisons the OAuth flow relies on: an authorization response's state against the pending one
 * in constant time (safeEqual), and authorization server URLs / issuers as written by different
 * parties, tolerating a trailing slash (sameUrl).
 */

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function sameUrl(a: string, b: string): boolean {
  const norm = (v: string) => {
    try {
      return new URL(v).href.replace(/\/$/, '');
    } catch {
      return v.replace(/\/$/, '');
    }
  };
  return norm(a) === norm(b);
}
