import type { Metadata } from 'next';
import { McpServersAdmin } from '../_components/mcp-servers-admin';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'MCP servers' };

/** The MCP servers admin list; app/admin/layout.tsx has already answered non-admins with a 404. */
export default function McpServersPage() {
  return <McpServersAdmin />;
}
