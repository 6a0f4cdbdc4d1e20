import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getFormatter, getTranslations } from 'next-intl/server';
import { FileAttachments } from '@/app/(chat)/_components/file-attachments';
import { ImportedMark } from '@/app/(chat)/_components/imported-mark';
import { Markdown } from '@/app/(chat)/_components/markdown';
import { markdownAfterHydration } from '@/app/(chat)/_components/markdown-budget';
import { getSessionUser } from '@/app/_server/session';
import { readShare } from '@/app/_server/shares';
import type { PublicMessage, PublicToolPart } from '@/lib/schemas/share';
import { ContinueButton } from './continue-button';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('sharePage');
  return { title: t('metaTitle'), robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

const PRE =
  'mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900';

/** "Used server.tool"; arguments and result only when the owner chose to include them (and they exist). */
async function ToolLine({ part, imported }: { part: PublicToolPart; imported: boolean }) {
  const t = await getTranslations('sharePage');
  const hasDetails = part.input !== undefined || part.output !== undefined || part.error !== undefined;
  const line = t('used', {
    tool: `${part.server}.${part.tool}`,
    state: part.state,
    imported: imported ? 'yes' : 'no',
  });
  return (
    <div
      data-tool-call
      data-server={part.server}
      data-tool-name={part.tool}
      data-state={part.state}
      data-imported={imported || undefined}
      className="my-2 text-xs text-zinc-500"
    >
      {hasDetails ? (
        <details className="rounded-md border border-zinc-200 px-2 py-1 dark:border-zinc-800">
          <summary className="cursor-pointer font-mono">{line}</summary>
          {part.input !== undefined && (
            <div className="mt-2">
              <p className="font-medium text-zinc-600 dark:text-zinc-400">{t('arguments')}</p>
              <pre data-tool-args className={PRE}>
                {JSON.stringify(part.input, null, 2)}
              </pre>
            </div>
          )}
          {part.output !== undefined && (
            <div className="mt-2">
              <p className="font-medium text-zinc-600 dark:text-zinc-400">{t('result')}</p>
              <pre data-tool-output className={PRE}>
                {part.output}
              </pre>
            </div>
          )}
          {part.error !== undefined && (
            <div className="mt-2">
              <p className="font-medium text-red-700 dark:text-red-400">{t('error')}</p>
              <pre data-tool-error className={PRE}>
                {part.error}
              </pre>
            </div>
          )}
        </details>
      ) : (
        <p className="font-mono">{line}</p>
      )}
    </div>
  );
}

async function SharedMessage({
  message,
  token,
  afterHydration,
}: {
  message: PublicMessage;
  token: string;
  /** Its Markdown is drawn by the browser, not the server (markdown-budget.ts). */
  afterHydration: boolean;
}) {
  const imported = message.imported === true;
  if (message.role === 'user') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    // Attachments the owner included, read through this share's token (GET /api/files/[id]?share=).
    const files = message.parts.flatMap((p) =>
      p.type === 'file'
        ? [{ url: `/api/files/${p.id}?share=${token}`, name: p.name, mediaType: p.mediaType }]
        : [],
    );
    return (
      <div data-role="user" data-imported={imported || undefined} className="flex flex-col items-end">
        {imported && <ImportedMark />}
        <FileAttachments files={files} />
        {text && (
          <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-zinc-100 px-4 py-2 text-sm dark:bg-zinc-800">
            {text}
          </div>
        )}
      </div>
    );
  }
  const t = await getTranslations('message');
  return (
    <div data-role="assistant" data-imported={imported || undefined} className="w-full min-w-0 text-sm">
      {imported && <ImportedMark />}
      {message.parts.map((part, i) =>
        part.type === 'text' ? (
          <Markdown key={i} text={part.text} afterHydration={afterHydration} />
        ) : part.type === 'tool' ? (
          <ToolLine key={i} part={part} imported={imported} />
        ) : null,
      )}
      {message.interrupted && (
        <p data-interrupted className="mt-2 text-xs font-medium text-amber-600 dark:text-amber-400">
          {t('interrupted')}
        </p>
      )}
    </div>
  );
}

/** The public, read-only snapshot behind a share link. Unknown, malformed and revoked tokens are the same 404. */
export default async function SharePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const share = await readShare(token);
  if (!share) notFound();
  const viewer = await getSessionUser(await headers());
  const [t, format] = [await getTranslations('sharePage'), await getFormatter()];
  const date = format.dateTime(new Date(share.createdAt), { dateStyle: 'long', timeZone: 'UTC' });
  const time = (chunks: React.ReactNode) => <time dateTime={share.createdAt}>{chunks}</time>;
  // The answers whose Markdown this render leaves to the browser (by position: shared messages have no ids).
  const drawnLater = markdownAfterHydration(
    share.messages.map((m, i) => ({ id: String(i), role: m.role, parts: m.parts })),
  );

  return (
    <main className="mx-auto flex min-h-dvh max-w-3xl flex-col px-4 py-6">
      <header className="border-b border-zinc-200 pb-4 dark:border-zinc-800">
        <p className="text-xs uppercase tracking-wide text-zinc-500">{t('readOnly')}</p>
        <h1 className="mt-1 break-words text-xl font-semibold">{share.title}</h1>
        <p className="mt-1 text-sm text-zinc-500">
          {share.ownerName
            ? t.rich('sharedBy', { name: share.ownerName, date, time })
            : t.rich('sharedOn', { date, time })}
        </p>
        <div className="mt-3">
          {viewer ? (
            <ContinueButton token={token} />
          ) : (
            <Link
              href={`/sign-in?next=${encodeURIComponent(`/share/${token}`)}`}
              className="text-sm text-blue-700 underline dark:text-blue-400"
            >
              {t('signInToContinue')}
            </Link>
          )}
        </div>
      </header>
      <div className="flex flex-col gap-6 py-6">
        {share.messages.length === 0 ? (
          <p className="text-center text-sm text-zinc-500">{t('empty')}</p>
        ) : (
          share.messages.map((m, i) => (
            <SharedMessage key={i} message={m} token={token} afterHydration={drawnLater.has(String(i))} />
          ))
        )}
      </div>
    </main>
  );
}
