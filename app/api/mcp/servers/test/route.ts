import * as z from '@/lib/zod';
import { testServerConfig } from '@/app/_server/mcp-test';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { parseWith, readJson, route } from '@/lib/http';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Tests an unsaved form: the body is a full server config. */
export const POST = route(async (req) => {
  const admin = await requireAdmin(req);
  const config = parseWith(McpServerConfigSchema, await readJson(req, z.unknown()), 'server');
  const result = await testServerConfig(config);
  await audit(
    admin,
    'mcp.server.test-unsaved',
    config.name,
    result.ok ? 'ok' : 'failed',
    config.transport === 'stdio' ? [config.command, ...config.args].join(' ') : undefined,
  );
  return Response.json(result);
});
