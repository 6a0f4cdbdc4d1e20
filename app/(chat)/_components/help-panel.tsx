import { BUILT_IN_COMMANDS } from './composer-commands';
import { useTranslations } from 'next-intl';
import { ComposerPanel } from './composer-panel';

type Props = { onClose: () => void };

const KEYS = [
  ['Enter', 'keyEnter'],
  ['Shift+Enter', 'keyShiftEnter'],
  ['↑ / ↓', 'keyArrows'],
  ['Tab', 'keyTab'],
  ['Escape', 'keyEscape'],
] as const;

const Key = ({ children }: { children: string }) => (
  <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-800">
    {children}
  </kbd>
);

/** `/help`: the composer's commands, prompts, `@` resources and keys. */
export function HelpPanel({ onClose }: Props) {
  const t = useTranslations('help');
  return (
    <ComposerPanel title={t('title')} onClose={onClose}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        {BUILT_IN_COMMANDS.map((c) => (
          <div key={c.label} className="contents">
            <dt className="font-mono">{c.label}</dt>
            <dd className="text-zinc-600 dark:text-zinc-400">{t(c.detail)}</dd>
          </div>
        ))}
        <dt className="font-mono">/server:prompt</dt>
        <dd className="text-zinc-600 dark:text-zinc-400">{t('prompt')}</dd>
        <dt className="font-mono">@name</dt>
        <dd className="text-zinc-600 dark:text-zinc-400">{t('resource')}</dd>
      </dl>
      <dl className="mt-3 space-y-1 text-xs">
        {KEYS.map(([k, what]) => (
          <div key={k} className="flex items-center gap-2">
            <dt>
              <Key>{k}</Key>
            </dt>
            <dd className="text-zinc-600 dark:text-zinc-400">{t(what)}</dd>
          </div>
        ))}
      </dl>
    </ComposerPanel>
  );
}
