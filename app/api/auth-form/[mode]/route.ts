import { handleAuthFormPost, handleSsoFormPost } from '@/app/_server/auth-form-post';
import { notFound } from '@/lib/errors';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ mode: string }> };

/**
 * The no-JavaScript fallback of the sign-in and sign-up forms (application/x-www-form-urlencoded), and
 * the start of single sign-on: `sso` (sign in) and `sso-link` (link the signed-in account).
 */
export const POST = route<Ctx>(async (req, { params }) => {
  const { mode } = await params;
  if (mode === 'sso' || mode === 'sso-link') return handleSsoFormPost(req, mode);
  if (mode !== 'sign-in' && mode !== 'sign-up') throw notFound();
  return handleAuthFormPost(req, mode);
});
