import { receiveUpload } from '@/app/_server/file-uploads';
import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** SPEC §7.4: multipart, field `file` → 201 { id, url, name, mediaType, size }. */
export const POST = route(async (req) => {
  const user = await requireUser(req);
  return Response.json(await receiveUpload(user.id, req), { status: 201 });
});
