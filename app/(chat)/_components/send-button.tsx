import { useTranslations } from 'next-intl';

type Props = { busy: boolean; canSend: boolean; onStop: () => void };

/** "Send" (submits the composer's form), or "Stop" while a reply streams. */
export function SendButton({ busy, canSend, onStop }: Props) {
  const t = useTranslations('composer');
  return busy ? (
    <button
      type="button"
      onClick={onStop}
      className="rounded-xl bg-zinc-800 px-4 py-2 text-sm font-semibold text-white hover:bg-zinc-700 dark:bg-zinc-200 dark:text-zinc-900"
    >
      {t('stop')}
    </button>
  ) : (
    <button
      type="submit"
      disabled={!canSend}
      className="rounded-xl bg-blue-600 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-700 disabled:opacity-40"
    >
      {t('send')}
    </button>
  );
}
