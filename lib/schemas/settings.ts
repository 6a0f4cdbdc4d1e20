import { z } from 'zod';

/** Admin-editable settings (GET·PATCH /api/admin/settings), without defaults: the fields themselves. */
const SettingsFields = z.object({
  signupOpen: z.boolean(),
  /** Internal: the built-in MCP servers were added once. */
  builtinsSeeded: z.boolean(),
  /** Tool-loop limits (per turn). */
  maxSteps: z.number().int().min(1).max(100),
  maxParallelTools: z.number().int().min(1).max(20),
  maxToolCalls: z.number().int().min(1).max(200),
  /** Per user: chat requests per minute, and answers streaming at once. */
  chatRequestsPerMinute: z.number().int().min(1).max(10_000),
  maxConcurrentTurns: z.number().int().min(1).max(1000),
});

const DEFAULTS: z.infer<typeof SettingsFields> = {
  signupOpen: false,
  builtinsSeeded: false,
  maxSteps: 10,
  maxParallelTools: 5,
  maxToolCalls: 20,
  chatRequestsPerMinute: 60,
  maxConcurrentTurns: 10,
};

/** Stored settings, each key falling back to its default when never written (or stored invalid). */
export const AppSettingsSchema = z.object({
  signupOpen: SettingsFields.shape.signupOpen.catch(DEFAULTS.signupOpen),
  builtinsSeeded: SettingsFields.shape.builtinsSeeded.catch(DEFAULTS.builtinsSeeded),
  maxSteps: SettingsFields.shape.maxSteps.catch(DEFAULTS.maxSteps),
  maxParallelTools: SettingsFields.shape.maxParallelTools.catch(DEFAULTS.maxParallelTools),
  maxToolCalls: SettingsFields.shape.maxToolCalls.catch(DEFAULTS.maxToolCalls),
  chatRequestsPerMinute: SettingsFields.shape.chatRequestsPerMinute.catch(DEFAULTS.chatRequestsPerMinute),
  maxConcurrentTurns: SettingsFields.shape.maxConcurrentTurns.catch(DEFAULTS.maxConcurrentTurns),
});
export type AppSettings = z.infer<typeof SettingsFields>;

/** A PATCH changes only the keys it names (no defaults fill the others in). */
export const SettingsPatchSchema = SettingsFields.omit({ builtinsSeeded: true }).partial().strict();
