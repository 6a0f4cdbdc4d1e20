import { resumeTurn } from '@/app/_server/conversation-turns';
import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** The running turn's UI message stream, replayed from its start and then live; 204 when none runs. */
export const GET = route<Ctx>(async (req, { params }) =>
  resumeTurn(await requireUser(req), (await params).id),
);
