'use client';

import { useTranslations } from 'next-intl';
import type { ToolDefinition } from '@/lib/mcp/tool-definition';
import { type Line, lineDiff } from '@/lib/text-diff';

/** What a tool tells the model, as the admin reviews it: every part its change hash covers but its name. */
export type Definition = Omit<ToolDefinition, 'name'>;

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

const LINE_CLASS: Record<Line['kind'], string> = {
  ' ': 'text-zinc-600 dark:text-zinc-400',
  '-': 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-300',
  '+': 'bg-green-50 text-green-800 dark:bg-green-950 dark:text-green-300',
};

function DiffBlock({ label, before, after }: { label: string; before: string; after: string }) {
  const t = useTranslations('admin.diff');
  const lines = lineDiff(before, after);
  const same = lines.every((l) => l.kind === ' ');
  return (
    <div>
      <p className="text-xs font-medium text-zinc-500">
        {label}
        {same && ` ${t('unchanged')}`}
      </p>
      {!same && (
        <pre className="mt-1 max-h-96 overflow-auto rounded border border-zinc-200 bg-white py-1 text-xs dark:border-zinc-700 dark:bg-zinc-950">
          {lines.map((line, index) => (
            <span
              key={index}
              data-diff-line={line.kind === ' ' ? 'same' : line.kind === '-' ? 'removed' : 'added'}
              className={`block whitespace-pre-wrap break-words px-2 ${LINE_CLASS[line.kind]}`}
            >
              {line.kind} {line.text}
            </span>
          ))}
        </pre>
      )}
    </div>
  );
}

/**
 * What changed in a tool's definition since the admin last reviewed it, as plain-text line diffs: the
 * description and input schema always, the title, annotations and output schema when either side has
 * them (a change of annotations alone, e.g. a tool now calling itself read-only so that it runs without
 * asking, is a change to review like any other).
 */
export function DefinitionDiff({ previous, current }: { previous: Definition; current: Definition }) {
  const t = useTranslations('admin.diff');
  const either = (key: 'title' | 'outputSchema' | 'annotations') =>
    previous[key] !== undefined || current[key] !== undefined;
  return (
    <div data-definition-diff className="space-y-2">
      {either('title') && (
        <DiffBlock label={t('title')} before={previous.title ?? ''} after={current.title ?? ''} />
      )}
      <DiffBlock label={t('description')} before={previous.description} after={current.description} />
      <DiffBlock
        label={t('inputSchema')}
        before={json(previous.inputSchema)}
        after={json(current.inputSchema)}
      />
      {either('annotations') && (
        <DiffBlock
          label={t('annotations')}
          before={json(previous.annotations)}
          after={json(current.annotations)}
        />
      )}
      {either('outputSchema') && (
        <DiffBlock
          label={t('outputSchema')}
          before={json(previous.outputSchema)}
          after={json(current.outputSchema)}
        />
      )}
    </div>
  );
}
