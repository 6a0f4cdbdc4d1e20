import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { requireAdminPage } from '@/app/_server/page-user';
import { McpServersAdmin } from '../_components/mcp-servers-admin';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin.mcpServers');
  return { title: t('title') };
}

/** The MCP servers admin list. */
export default async function McpServersPage() {
  await requireAdminPage();
  return <McpServersAdmin />;
}
