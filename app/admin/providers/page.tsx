import { ProvidersAdmin } from '../_components/providers-admin';

export const dynamic = 'force-dynamic';

export default function ProvidersPage() {
  return <ProvidersAdmin />;
}
