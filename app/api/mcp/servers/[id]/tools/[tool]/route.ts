import * as z from '@/lib/zod';
import { patchTool } from '@/app/_server/mcp-admin';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ToolPatchSchema = z
  .object({
    enabled: z.boolean().optional(),
    approval: z.enum(['auto', 'ask']).optional(),
    reviewed: z.literal(true).optional(),
    /**
     * With `reviewed`: the hashes of the users' changed definitions the admin was shown (the detail's
     * `userChanges`); only users shown one of these are accepted. Without it, no other user's view is.
     */
    definitions: z
      .array(z.string().regex(/^[0-9a-f]{64}$/))
      .max(1000)
      .optional(),
  })
  .strict()
  .refine((patch) => patch.definitions === undefined || patch.reviewed === true, {
    path: ['definitions'],
    message: 'definitions are sent with reviewed: true',
  });

export const PATCH = route<{ params: Promise<{ id: string; tool: string }> }>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  // Next.js hands the segment over decoded (the UI encodes the name once): no second decode.
  const { id, tool } = await params;
  const body = await readJson(req, ToolPatchSchema);
  const result = await patchTool(admin, id, tool, body);
  await audit(admin, 'mcp.tool.update', `${id}/${tool}`, 'ok', JSON.stringify(body));
  return Response.json(result);
});
