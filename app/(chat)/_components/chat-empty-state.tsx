import Link from 'next/link';
import { useTranslations } from 'next-intl';

type Props = {
  /** A new chat without an assistant: the assistants offered to start with. */
  assistants: Array<{ id: string; name: string }>;
};

/** Above an empty conversation: what to do, and the assistants to start a chat with. */
export function ChatEmptyState({ assistants }: Props) {
  const t = useTranslations('assistants');
  const tc = useTranslations('chat');
  return (
    <div className="mt-24 text-center text-zinc-500">
      <p className="text-2xl font-semibold text-zinc-700 dark:text-zinc-300">{tc('emptyTitle')}</p>
      <p className="mt-2 text-sm">{tc('emptyHint')}</p>
      {assistants.length > 0 && (
        <nav aria-label={t('startWith')} className="mt-6 flex flex-wrap justify-center gap-2">
          {assistants.map((a) => (
            <Link
              key={a.id}
              href={`/?assistant=${encodeURIComponent(a.id)}`}
              className="rounded-full border border-zinc-300 px-3 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              {t('newChatWith', { name: a.name })}
            </Link>
          ))}
        </nav>
      )}
    </div>
  );
}
