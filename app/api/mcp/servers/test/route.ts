import { z } from 'zod';
import { testServerConfig } from '@/app/_server/mcp-test';
import { requireAdmin } from '@/app/_server/session';
import { parseWith, readJson, route } from '@/lib/http';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Tests an unsaved form: the body is a full server config. */
export const POST = route(async (req) => {
  await requireAdmin(req);
  const config = parseWith(McpServerConfigSchema, await readJson(req, z.unknown()), 'server');
  return Response.json(await testServerConfig(config));
});
