import * as z from '@/lib/zod';

/** Admin-editable settings (GET·PATCH /api/admin/settings), without defaults: the fields themselves. */
const SettingsFields = z.object({
  signupOpen: z.boolean(),
  /** Email and password sign-in (and sign-up); off only while single sign-on works (app/_server/sso.ts). */
  passwordSignIn: z.boolean(),
  /** Internal: the built-in MCP servers were added once. */
  builtinsSeeded: z.boolean(),
  /** Tool-loop limits (per turn). */
  maxSteps: z.number().int().min(1).max(100),
  maxParallelTools: z.number().int().min(1).max(20),
  maxToolCalls: z.number().int().min(1).max(200),
  /** Per user: chat requests per minute, and answers streaming at once. */
  chatRequestsPerMinute: z.number().int().min(1).max(10_000),
  maxConcurrentTurns: z.number().int().min(1).max(1000),
  /** Above either, a turn sends the model a tool search instead of every tool (lib/chat/tool-search.ts). */
  toolSearchMaxTools: z.number().int().min(1).max(10_000),
  toolSearchMaxTokens: z.number().int().min(500).max(1_000_000),
});

const DEFAULTS: z.infer<typeof SettingsFields> = {
  signupOpen: false,
  passwordSignIn: true,
  builtinsSeeded: false,
  maxSteps: 10,
  maxParallelTools: 5,
  maxToolCalls: 20,
  chatRequestsPerMinute: 60,
  maxConcurrentTurns: 10,
  // Tool search defaults. 40 tools: selection accuracy is reported to degrade past 30–50 tools
  // (Anthropic's tool search guide), and 40 is where the composer already warned. 10 000 tokens: a few
  // dozen rich schemas, ~8% of a 128k context re-sent on every step of every turn; a catalog under both
  // bounds costs less than the extra search step would save.
  toolSearchMaxTools: 40,
  toolSearchMaxTokens: 10_000,
};

/** Stored settings, each key falling back to its default when never written (or stored invalid). */
export const AppSettingsSchema = z.object({
  signupOpen: SettingsFields.shape.signupOpen.catch(DEFAULTS.signupOpen),
  passwordSignIn: SettingsFields.shape.passwordSignIn.catch(DEFAULTS.passwordSignIn),
  builtinsSeeded: SettingsFields.shape.builtinsSeeded.catch(DEFAULTS.builtinsSeeded),
  maxSteps: SettingsFields.shape.maxSteps.catch(DEFAULTS.maxSteps),
  maxParallelTools: SettingsFields.shape.maxParallelTools.catch(DEFAULTS.maxParallelTools),
  maxToolCalls: SettingsFields.shape.maxToolCalls.catch(DEFAULTS.maxToolCalls),
  chatRequestsPerMinute: SettingsFields.shape.chatRequestsPerMinute.catch(DEFAULTS.chatRequestsPerMinute),
  maxConcurrentTurns: SettingsFields.shape.maxConcurrentTurns.catch(DEFAULTS.maxConcurrentTurns),
  toolSearchMaxTools: SettingsFields.shape.toolSearchMaxTools.catch(DEFAULTS.toolSearchMaxTools),
  toolSearchMaxTokens: SettingsFields.shape.toolSearchMaxTokens.catch(DEFAULTS.toolSearchMaxTokens),
});
export type AppSettings = z.infer<typeof SettingsFields>;

/** A PATCH changes only the keys it names (no defaults fill the others in). */
export const SettingsPatchSchema = SettingsFields.omit({ builtinsSeeded: true }).partial().strict();
