import * as z from '@/lib/zod';

/** POST /api/prompts/get and /api/prompts/complete: an MCP prompt, and suggestions for its arguments. */

export const PromptGetSchema = z
  .object({
    server: z.string().max(64),
    name: z.string().min(1).max(200),
    arguments: z.record(z.string().max(200), z.string().max(10_000)).default({}),
  })
  .strict();
export const PromptCompleteSchema = z
  .object({
    server: z.string().max(64),
    prompt: z.string().min(1).max(200),
    argument: z.string().min(1).max(200),
    value: z.string().max(1000),
  })
  .strict();
