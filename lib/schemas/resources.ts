import * as z from '@/lib/zod';

/** POST /api/resources/complete: suggestions for one variable of a server's resource template. */
export const ResourceCompleteSchema = z
  .object({
    server: z.string().max(64),
    uriTemplate: z.string().min(1).max(2048),
    argument: z.string().min(1).max(200),
    value: z.string().max(1000),
    /** The values already given to the template's other variables. */
    context: z.record(z.string().max(200), z.string().max(1000)).default({}),
  })
  .strict();
