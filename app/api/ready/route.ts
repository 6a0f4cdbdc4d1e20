import { checkReadiness } from '@/app/_server/readiness';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness (public, for load balancers and orchestrators): 200 `{ ok: true, checks }` when this process
 * can serve, else 503 with the check that is not `ok` (`draining` while it stops). Liveness is /api/health.
 */
export const GET = route(async () => {
  const readiness = await checkReadiness();
  return Response.json(readiness, {
    status: readiness.ok ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
});
