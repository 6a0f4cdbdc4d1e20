import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { removeSso, saveSso, ssoOverview } from '@/app/_server/sso';
import { readIfMatch, readJson, route } from '@/lib/http';
import { SsoConfigInputSchema } from '@/lib/sso';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The single sign-on provider (without its client secret) and the state of password sign-in. */
export const GET = route(async (req) => {
  const admin = await requireAdmin(req);
  return Response.json(await ssoOverview(admin.id));
});

/** Sets the provider: its discovery document and keys are fetched and checked before it is stored. */
export const PUT = route(async (req) => {
  const admin = await requireAdmin(req);
  const ifMatch = readIfMatch(req);
  const input = await readJson(req, SsoConfigInputSchema);
  try {
    await saveSso(input, ifMatch);
  } catch (err) {
    await audit(admin, 'sso.update', input.issuer, 'failed', err instanceof Error ? err.message : undefined);
    throw err;
  }
  await audit(
    admin,
    'sso.update',
    input.issuer,
    'ok',
    JSON.stringify({ name: input.name, allowedDomains: input.allowedDomains }),
  );
  return Response.json(await ssoOverview(admin.id));
});

export const DELETE = route(async (req) => {
  const admin = await requireAdmin(req);
  await removeSso();
  await audit(admin, 'sso.delete', null);
  return Response.json(await ssoOverview(admin.id));
});
