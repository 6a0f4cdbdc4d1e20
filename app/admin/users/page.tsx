import { requireAdminPage } from '@/app/_server/page-user';
import { UsersAdmin } from '../_components/users-admin';

export const dynamic = 'force-dynamic';

export default async function UsersPage() {
  const user = await requireAdminPage();
  return <UsersAdmin currentUserId={user.id} />;
}
