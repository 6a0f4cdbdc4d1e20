import { clientMetadata } from '@/app/_server/mcp-oauth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** SPEC §7.2: our OAuth Client ID Metadata Document (public; its URL is our client id). */
export function GET() {
  return Response.json(clientMetadata(), { headers: { 'cache-control': 'public, max-age=3600' } });
}
