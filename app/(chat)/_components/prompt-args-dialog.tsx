'use client';

import { useTranslations } from 'next-intl';
import { DialogActions } from './dialog-actions';
import { type FormEvent, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { Modal } from '@/app/_components/modal';
import { PromptArgumentField } from './prompt-argument-field';
import { completeArgument, renderPromptText } from './prompt-requests';
import type { PromptInfo } from './use-mcp-catalogs';

type Props = { prompt: PromptInfo; onInsert: (text: string) => void; onClose: () => void };

/** Asks for an MCP prompt's arguments (with the server's completions), renders it, and hands back its text. */
export function PromptArgsDialog({ prompt, onInsert, onClose }: Props) {
  const t = useTranslations('promptDialog');
  const tf = useTranslations('promptArgument');
  const failureText = useFailureText();
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const args = prompt.arguments ?? [];
  const title = `${prompt.server}:${prompt.name}`;

  async function insert(e: FormEvent) {
    e.preventDefault();
    const missing = args.filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name);
    if (missing.length) {
      setError(tf('missing', { names: missing.join(', ') }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      onInsert(await renderPromptText(prompt.server, prompt.name, filled));
    } catch (err) {
      setError(err instanceof Error ? failureText(err) : t('renderFailed'));
      setBusy(false);
    }
  }

  return (
    <Modal
      title={`/${title}`}
      titleClassName="font-mono text-base font-semibold"
      label={t('label', { name: title })}
      onClose={onClose}
      closeOnOutsideClick={false}
      placement="top"
      className="w-[min(26rem,92vw)] p-5"
    >
      <form onSubmit={(e) => void insert(e)} className="space-y-3">
        <div>
          {prompt.description && (
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{prompt.description}</p>
          )}
        </div>
        {args.map((a, i) => (
          <PromptArgumentField
            key={a.name}
            complete={(value, signal) => completeArgument(prompt.server, prompt.name, a.name, value, signal)}
            argument={a}
            value={values[a.name] ?? ''}
            autoFocus={i === 0}
            onChange={(v) => setValues((prev) => ({ ...prev, [a.name]: v }))}
          />
        ))}
        <DialogActions error={error} submit={t('insert')} busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
