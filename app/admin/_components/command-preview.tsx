import { useTranslations } from 'next-intl';

type Props = { command: string; args: string[] };

/** Characters a POSIX shell leaves alone in a word; anything else gets single quotes (`@` too, to be explicit). */
const PLAIN_WORD = /^[A-Za-z0-9_./:,=+%-]+$/;

/** One argv entry written the way a shell would have to read it to get exactly this string. */
function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The stdio command exactly as it will be spawned: the command and every argument, shell-quoted,
 * never truncated. The process runs without a shell; the quoting only shows where each argument ends.
 */
export function CommandPreview({ command, args }: Props) {
  const t = useTranslations('admin.command');
  const line = [command.trim(), ...args].map(shellQuote).join(' ');
  return (
    <div className="rounded-md border border-zinc-200 bg-zinc-50 p-2 dark:border-zinc-700 dark:bg-zinc-950">
      <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{t('title')}</p>
      <code data-command-preview className="mt-1 block whitespace-pre-wrap break-all font-mono text-xs">
        {line}
      </code>
      <p className="mt-1 text-xs text-zinc-500">{t('noShell')}</p>
    </div>
  );
}
