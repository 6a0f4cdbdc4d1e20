import type { Metadata } from 'next';
import { requireAdminPage } from '@/app/_server/page-user';
import { McpServersAdmin } from '../_components/mcp-servers-admin';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'MCP servers' };

/** The MCP servers admin list. */
export default async function McpServersPage() {
  await requireAdminPage();
  return <McpServersAdmin />;
}
