'use client';

import { useEffect, useRef, useState } from 'react';

type Props = {
  busy: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  models?: Array<{ id: string; label: string }>;
  model?: string | null;
  onModelChange?: (id: string) => void;
};

/** The message box: Enter sends, Shift+Enter adds a line; "Stop" replaces "Send" while a reply streams. */
export function Composer({ busy, disabled, onSend, onStop, models = [], model, onModelChange }: Props) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!busy) ref.current?.focus();
  }, [busy]);

  function submit() {
    const value = text.trim();
    if (!value || busy || disabled) return;
    onSend(value);
    setText('');
  }

  return (
    <div className="mx-auto w-full max-w-3xl space-y-1">
      {models.length > 1 && (
        <label className="flex items-center gap-2 text-xs text-zinc-500">
          <span>Model</span>
          <select
            value={model ?? ''}
            onChange={(e) => onModelChange?.(e.target.value)}
            disabled={busy}
            className="max-w-[16rem] truncate rounded border border-zinc-300 bg-white px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      )}
    <form
      className="flex w-full items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm dark:border-zinc-700 dark:bg-zinc-900"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="composer-input" className="sr-only">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={ref}
        value={text}
        rows={1}
        autoFocus
        placeholder="Send a message…"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
        className="max-h-48 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-sm outline-none [field-sizing:content]"
      />
      {busy ? (
        <button
          type="button"
          onClick={onStop}
          className="rounded-xl bg-zinc-800 px-4 py-2 text-sm font-semibold text-white hover:bg-zinc-700 dark:bg-zinc-200 dark:text-zinc-900"
        >
          Stop
        </button>
      ) : (
        <button
          type="submit"
          disabled={!text.trim() || disabled}
          className="rounded-xl bg-blue-600 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-700 disabled:opacity-40"
        >
          Send
        </button>
      )}
    </form>
    </div>
  );
}
