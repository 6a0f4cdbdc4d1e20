import * as z from '@/lib/zod';
import { HttpUrlSchema } from '@/lib/schemas/http-url';
import { AllowListSchema } from '@/lib/schemas/mcp';

const httpUrl = HttpUrlSchema.transform((v) => v.replace(/\/+$/, ''));

export const ToolCallingSchema = z.enum(['native', 'prompt']);

const fields = {
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 _.-]{1,64}$/, 'must be 1–64 letters, digits, spaces, _ . -'),
  baseURL: httpUrl,
  models: z.array(z.string().trim().min(1).max(200)).max(500),
  toolCalling: ToolCallingSchema,
  /** Who may use this provider's models: "*", a role or emails. */
  allow: AllowListSchema,
  /** Per model, a list that replaces `allow` for that model. */
  modelAllow: z.record(z.string().trim().min(1).max(200), AllowListSchema),
  /** Models that cannot take images: a tool's images reach them as a note only. */
  noVision: z.array(z.string().trim().min(1).max(200)).max(500),
  /** Per model, USD per 1M input and 1M output tokens (shown as the cost of answers). */
  prices: z
    .record(
      z.string().trim().min(1).max(200),
      z
        .object({
          input: z.number().finite().min(0).max(1_000_000),
          output: z.number().finite().min(0).max(1_000_000),
        })
        .strict(),
    )
    .refine((r) => Object.keys(r).length <= 500, 'at most 500 models'),
};

export const ProviderCreateSchema = z
  .object({
    ...fields,
    apiKey: z.string().max(1000).optional(),
    models: fields.models.default([]),
    toolCalling: ToolCallingSchema.default('native'),
    allow: fields.allow.default(['*']),
    modelAllow: fields.modelAllow.default({}),
    noVision: fields.noVision.default([]),
    prices: fields.prices.default({}),
  })
  .strict();

/** `apiKey: ""` keeps the stored key, `null` removes it, a string replaces it. */
export const ProviderPatchSchema = z
  .object({ ...fields, apiKey: z.string().max(1000).nullable() })
  .partial()
  .strict();

export const ModelsQuerySchema = z.union([
  z.object({ providerId: z.string().min(1).max(100) }).strict(),
  z.object({ baseURL: httpUrl, apiKey: z.string().max(1000).optional() }).strict(),
]);

export const ProviderTestSchema = z.object({ model: z.string().min(1).max(200).optional() }).strict();

export const PROVIDER_PRESETS = [
  { name: 'OpenAI', baseURL: 'https://api.openai.com/v1' },
  { name: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1' },
  { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' },
] as const;
