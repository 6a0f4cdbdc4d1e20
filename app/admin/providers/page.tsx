import { requireAdminPage } from '@/app/_server/page-user';
import { ProvidersAdmin } from '../_components/providers-admin';

export const dynamic = 'force-dynamic';

export default async function ProvidersPage() {
  await requireAdminPage();
  return <ProvidersAdmin />;
}
