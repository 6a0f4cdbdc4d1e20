import { z } from 'zod';
import { patchTool } from '@/app/_server/mcp-admin';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ToolPatchSchema = z
  .object({ enabled: z.boolean().optional(), approval: z.enum(['auto', 'ask']).optional(), reviewed: z.literal(true).optional() })
  .strict();

export const PATCH = route<{ params: Promise<{ id: string; tool: string }> }>(async (req, { params }) => {
  await requireAdmin(req);
  const { id, tool } = await params;
  return Response.json(await patchTool(id, decodeURIComponent(tool), await readJson(req, ToolPatchSchema)));
});
