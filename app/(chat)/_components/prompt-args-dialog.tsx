'use client';

import { DialogActions } from './dialog-actions';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { PromptArgumentField } from './prompt-argument-field';
import { completeArgument, renderPromptText } from './prompt-requests';
import type { PromptInfo } from './use-mcp-catalogs';

type Props = { prompt: PromptInfo; onInsert: (text: string) => void; onClose: () => void };

/** Asks for an MCP prompt's arguments (with the server's completions), renders it, and hands back its text. */
export function PromptArgsDialog({ prompt, onInsert, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const args = prompt.arguments ?? [];
  const title = `${prompt.server}:${prompt.name}`;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  async function insert(e: FormEvent) {
    e.preventDefault();
    const missing = args.filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name);
    if (missing.length) {
      setError(`Required: ${missing.join(', ')}`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      onInsert(await renderPromptText(prompt.server, prompt.name, filled));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not render the prompt.');
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      aria-label={`Arguments for ${title}`}
      onClose={onClose}
      className="m-auto w-[min(26rem,92vw)] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <form onSubmit={(e) => void insert(e)} className="space-y-3">
        <div>
          <h2 className="font-mono text-base font-semibold">/{title}</h2>
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
        <DialogActions error={error} submit="Insert" busy={busy} onCancel={() => ref.current?.close()} />
      </form>
    </dialog>
  );
}
