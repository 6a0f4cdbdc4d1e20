import * as z from '@/lib/zod';

/**
 * A share's public snapshot (lib/share/serialize.ts writes it, the share page shows it): message text,
 * and tool calls as "Used server.tool" with arguments and results only when the owner included them.
 */
const PublicToolPartSchema = z.object({
  type: z.literal('tool'),
  server: z.string(),
  tool: z.string(),
  state: z.enum(['done', 'error', 'denied', 'cancelled']),
  input: z.unknown().optional(),
  output: z.string().optional(),
  error: z.string().optional(),
});
/** An attachment the owner chose to share: the page shows it from /api/files/[id]?share=<token>. */
const PublicFilePartSchema = z.object({
  type: z.literal('file'),
  id: z.string(),
  name: z.string(),
  mediaType: z.string(),
  size: z.number().optional(),
});
const PublicPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  PublicToolPartSchema,
  PublicFilePartSchema,
]);
const PublicMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  parts: z.array(z.unknown()),
  imported: z.literal(true).optional(),
  /** An answer cut short (Stop, a disconnect, an error): the page marks it, as the chat does. */
  interrupted: z.literal(true).optional(),
});

export type PublicToolPart = z.infer<typeof PublicToolPartSchema>;
export type PublicFilePart = z.infer<typeof PublicFilePartSchema>;
export type PublicPart = z.infer<typeof PublicPartSchema>;
export type PublicMessage = Omit<z.infer<typeof PublicMessageSchema>, 'parts'> & { parts: PublicPart[] };

/**
 * A stored snapshot (the JSON `snapshot` column) read back for the public page. An allowlist again:
 * keys not listed are stripped; a malformed part is dropped, and so is a message left without parts.
 */
export function parseShareSnapshot(raw: unknown): PublicMessage[] {
  if (!Array.isArray(raw)) return [];
  const out: PublicMessage[] = [];
  for (const item of raw) {
    const message = PublicMessageSchema.safeParse(item);
    if (!message.success) continue;
    const parts = message.data.parts.flatMap((p) => {
      const part = PublicPartSchema.safeParse(p);
      return part.success ? [part.data] : [];
    });
    if (parts.length) out.push({ ...message.data, parts });
  }
  return out;
}

export const ShareCreateSchema = z
  .object({
    includeToolDetails: z.boolean().default(false),
    includeOwnerName: z.boolean().default(false),
    /** Attachments (images, files) of the messages; left out unless the owner includes them. */
    includeFiles: z.boolean().default(false),
  })
  .strict();
