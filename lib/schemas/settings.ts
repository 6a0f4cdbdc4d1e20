import { z } from 'zod';

/** Admin-editable settings (GET·PATCH /api/admin/settings); every key has a default. */
export const AppSettingsSchema = z.object({
  signupOpen: z.boolean().default(false),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export const SettingsPatchSchema = AppSettingsSchema.partial().strict();
