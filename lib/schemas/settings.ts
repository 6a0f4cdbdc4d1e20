import { z } from 'zod';

/** Admin-editable settings (GET·PATCH /api/admin/settings); every key has a default. */
export const AppSettingsSchema = z.object({
  signupOpen: z.boolean().default(false),
  /** Internal: the built-in MCP servers were added once. */
  builtinsSeeded: z.boolean().default(false),
  /** Tool-loop limits (per turn). */
  maxSteps: z.number().int().min(1).max(100).default(10),
  maxParallelTools: z.number().int().min(1).max(20).default(5),
  maxToolCalls: z.number().int().min(1).max(200).default(20),
  /** Per user: chat requests per minute, and answers streaming at once. */
  chatRequestsPerMinute: z.number().int().min(1).max(10_000).default(60),
  maxConcurrentTurns: z.number().int().min(1).max(1000).default(10),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export const SettingsPatchSchema = AppSettingsSchema.omit({ builtinsSeeded: true }).partial().strict();
