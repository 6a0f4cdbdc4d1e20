import { fileResponse, findReadableFile } from '@/app/_server/file-serving';
import { readBlob } from '@/app/_server/files';
import { getSessionUser } from '@/app/_server/session';
import { AppError } from '@/lib/errors';
import { assertNoNulAddress, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The owner's file; or, with `?share=<token>`, a file that share includes (for anyone holding the link). */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const { id } = await params;
  const share = new URL(req.url).searchParams.get('share') ?? undefined;
  let userId: string | undefined;
  if (share === undefined) {
    const user = await getSessionUser(req.headers);
    if (!user) throw new AppError('unauthorized', 'Sign in first.');
    userId = user.id;
  }
  assertNoNulAddress(req);
  const row = await findReadableFile(id, { userId, share });
  return fileResponse(row, await readBlob(row), req, share !== undefined);
});
