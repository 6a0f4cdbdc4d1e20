import * as z from '@/lib/zod';

/** The answer to a request an MCP server made during a tool call (POST /api/chat/[id]/requests/[requestId]). */
export const RequestAnswerSchema = z.discriminatedUnion('action', [
  /** Elicitation: the form's values (checked against the requested schema), or nothing for a link. */
  z.object({
    action: z.literal('accept'),
    content: z
      .record(
        z.string().max(200),
        z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(1000)).max(100)]),
      )
      .optional(),
  }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
  /** Sampling: run it, optionally with the last user message's text edited. */
  z.object({ action: z.literal('approve'), text: z.string().min(1).max(100_000).optional() }),
  z.object({ action: z.literal('deny') }),
]);
export type RequestAnswer = z.infer<typeof RequestAnswerSchema>;
