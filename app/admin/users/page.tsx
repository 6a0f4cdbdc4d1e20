import { requirePageUser } from '@/app/_server/page-user';
import { UsersAdmin } from '../_components/users-admin';

export const dynamic = 'force-dynamic';

export default async function UsersPage() {
  const user = await requirePageUser();
  return <UsersAdmin currentUserId={user.id} />;
}
