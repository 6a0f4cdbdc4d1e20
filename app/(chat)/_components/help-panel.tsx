import { BUILT_IN_COMMANDS } from './composer-commands';
import { ComposerPanel } from './composer-panel';

type Props = { onClose: () => void };

const KEYS: Array<[string, string]> = [
  ['Enter', 'Send (or choose the highlighted menu option)'],
  ['Shift+Enter', 'New line'],
  ['↑ / ↓', 'Move in a menu'],
  ['Tab', 'Choose the highlighted menu option'],
  ['Escape', 'Close a menu or panel; otherwise stop the answer while it streams'],
];

const Key = ({ children }: { children: string }) => (
  <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-800">
    {children}
  </kbd>
);

/** `/help`: the composer's commands, prompts, `@` resources and keys. */
export function HelpPanel({ onClose }: Props) {
  return (
    <ComposerPanel title="Commands and shortcuts" onClose={onClose}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        {BUILT_IN_COMMANDS.map((c) => (
          <div key={c.label} className="contents">
            <dt className="font-mono">{c.label}</dt>
            <dd className="text-zinc-600 dark:text-zinc-400">{c.detail}</dd>
          </div>
        ))}
        <dt className="font-mono">/server:prompt</dt>
        <dd className="text-zinc-600 dark:text-zinc-400">
          Insert an MCP prompt (asks for its arguments first)
        </dd>
        <dt className="font-mono">@name</dt>
        <dd className="text-zinc-600 dark:text-zinc-400">
          Attach an MCP resource; the server reads it when you send
        </dd>
      </dl>
      <dl className="mt-3 space-y-1 text-xs">
        {KEYS.map(([k, what]) => (
          <div key={k} className="flex items-center gap-2">
            <dt>
              <Key>{k}</Key>
            </dt>
            <dd className="text-zinc-600 dark:text-zinc-400">{what}</dd>
          </div>
        ))}
      </dl>
    </ComposerPanel>
  );
}
