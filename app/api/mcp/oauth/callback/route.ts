import { completeSignIn } from '@/app/_server/mcp-sign-in';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** SPEC §7.2: the OAuth redirect URI; stores the user's tokens and sends the browser back. */
export const GET = (req: Request) => completeSignIn(req);
