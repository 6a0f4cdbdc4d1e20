import type { Metadata } from 'next';
import { requireAdminPage } from '@/app/_server/page-user';
import { McpServerDetail } from '../../_components/mcp-server-detail';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'MCP server' };

/** One MCP server's detail page. */
export default async function McpServerPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdminPage();
  const { id } = await params;
  return <McpServerDetail id={id} />;
}
