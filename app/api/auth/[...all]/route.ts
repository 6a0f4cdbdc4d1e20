import { handleAuthRequest } from '@/app/_server/auth-gate';
import { route } from '@/lib/http';

export const runtime = 'nodejs';

export const GET = route(handleAuthRequest);
export const POST = route(handleAuthRequest);
