import { requireAdminPage } from '@/app/_server/page-user';
import { SsoAdmin } from '../_components/sso-admin';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ error?: string | string[]; linked?: string }> };

export default async function SsoPage({ searchParams }: Props) {
  await requireAdminPage();
  const { error, linked } = await searchParams;
  // Where "Link my account" comes back to: a code (shown by its own text), never text from the URL.
  const code = typeof error === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,59}$/.test(error) ? error : null;
  return <SsoAdmin linkError={code} justLinked={linked === '1'} />;
}
