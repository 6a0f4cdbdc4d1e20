import { exportServers } from '@/app/_server/mcp-servers';
import { requireAdmin } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The servers as a Claude Desktop config; secret values masked unless `?secrets=1`. */
export const GET = route(async (req) => {
  await requireAdmin(req);
  const withSecrets = new URL(req.url).searchParams.get('secrets') === '1';
  return new Response(JSON.stringify(await exportServers(withSecrets), null, 2), {
    headers: {
      'content-type': 'application/json',
      'content-disposition': 'attachment; filename="mcp-servers.json"',
      'cache-control': 'no-store',
    },
  });
});
