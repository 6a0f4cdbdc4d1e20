import * as z from '@/lib/zod';
import { MAX_INSTRUCTIONS_CHARS } from '@/lib/schemas/conversations';
import { ToolModeSchema } from '@/lib/schemas/chat';
import { hasNoNul, NO_NUL } from '@/lib/stored-text';

export { MAX_INSTRUCTIONS_CHARS };
export const MAX_ASSISTANT_NAME_CHARS = 80;

export const InstructionsSchema = z
  .string()
  .max(MAX_INSTRUCTIONS_CHARS, `must be at most ${MAX_INSTRUCTIONS_CHARS} characters`)
  .refine(hasNoNul, NO_NUL);

const fields = {
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_ASSISTANT_NAME_CHARS, `must be at most ${MAX_ASSISTANT_NAME_CHARS} characters`)
    .refine(hasNoNul, NO_NUL),
  instructions: InstructionsSchema,
  /** null = the user's default model. */
  model: z.string().min(1).max(200).nullable(),
  /** null = the default tool mode. */
  toolMode: ToolModeSchema.nullable(),
  /** Server names; null = every server the user may use. */
  servers: z.array(z.string().min(1).max(64)).max(100).nullable(),
  temperature: z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2').nullable(),
  /** Offered to every user (admins only). */
  shared: z.boolean(),
};

/** POST /api/assistants (SPEC §7.4). */
export const AssistantCreateSchema = z
  .object({
    name: fields.name,
    instructions: fields.instructions,
    model: fields.model.optional(),
    toolMode: fields.toolMode.optional(),
    servers: fields.servers.optional(),
    temperature: fields.temperature.optional(),
    shared: fields.shared.optional(),
  })
  .strict();
export type AssistantCreate = z.infer<typeof AssistantCreateSchema>;

/** PATCH /api/assistants/[id]: only the fields given change. */
export const AssistantPatchSchema = AssistantCreateSchema.partial().strict();
export type AssistantPatch = z.infer<typeof AssistantPatchSchema>;

/** An assistant as the API shows it. */
export type AssistantView = {
  id: string;
  name: string;
  instructions: string;
  model: string | null;
  toolMode: z.infer<typeof ToolModeSchema> | null;
  servers: string[] | null;
  temperature: number | null;
  shared: boolean;
  /** The viewer created it. */
  mine: boolean;
  /** The viewer may change or delete it (their own personal one; a shared one: admins). */
  editable: boolean;
  /** The version: an edit form sends it back as If-Match (a 409 when another tab or admin saved since). */
  updatedAt: string;
};
