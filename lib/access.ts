/** Who is asking, as an allow list sees them. */
export type Principal = { id: string; email: string; role: string };

/**
 * Whether an allow list admits a user: `"*"` admits everyone, `"admin"`/`"user"` that role, anything
 * else one email (compared case-insensitively). An empty list admits no one.
 */
export function isAllowed(allow: readonly string[], who: Principal): boolean {
  const email = who.email.toLowerCase();
  return allow.some((entry) => entry === '*' || entry === who.role || entry.toLowerCase() === email);
}
