import * as z from '@/lib/zod';

/**
 * Who an item of an MCP tool result is meant for (its `annotations.audience`), read leniently: the
 * result comes from an untrusted server, so anything malformed counts as "no audience" (both).
 */
const AudienceSchema = z.array(z.unknown());

export type Audience = { user: boolean; assistant: boolean };

export function audienceOf(item: unknown): Audience {
  const raw = (item as { annotations?: { audience?: unknown } } | null)?.annotations?.audience;
  const parsed = AudienceSchema.safeParse(raw);
  if (!parsed.success) return { user: true, assistant: true };
  const user = parsed.data.includes('user');
  const assistant = parsed.data.includes('assistant');
  // Absent, empty or only unknown roles: for both, as if there were no annotation.
  if (!user && !assistant) return { user: true, assistant: true };
  return { user, assistant };
}

/** Shown in the tool card (and a share page): everything except `audience: ["assistant"]`. */
export const forUser = (item: unknown): boolean => audienceOf(item).user;

/** Sent to the model: everything except `audience: ["user"]`. */
export const forAssistant = (item: unknown): boolean => audienceOf(item).assistant;
