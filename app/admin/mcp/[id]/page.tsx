import type { Metadata } from 'next';
import { McpServerDetail } from '../../_components/mcp-server-detail';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'MCP server' };

/** One MCP server's detail page; app/admin/layout.tsx has already answered non-admins with a 404. */
export default async function McpServerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <McpServerDetail id={id} />;
}
