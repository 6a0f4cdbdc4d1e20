import { getAuth } from '@/app/_server/auth';

export const runtime = 'nodejs';

export const GET = (req: Request) => getAuth().handler(req);
export const POST = (req: Request) => getAuth().handler(req);
