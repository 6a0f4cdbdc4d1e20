import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { requireAdminPage } from '@/app/_server/page-user';
import { McpServerDetail } from '../../_components/mcp-server-detail';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin.mcpDetail');
  return { title: t('title') };
}

/** One MCP server's detail page. */
export default async function McpServerPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdminPage();
  const { id } = await params;
  return <McpServerDetail id={id} />;
}
