'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { isInputMethodKey } from '@/app/_components/input-method';

type Argument = { name: string; description?: string; required?: boolean };
type Props = {
  /** The server's suggestions for a value (POST /api/prompts/complete or /api/resources/complete). */
  complete: (value: string, signal: AbortSignal) => Promise<string[]>;
  /** Changes when what `complete` depends on besides the value does (the other variables' values). */
  completionKey?: string;
  argument: Argument;
  value: string;
  autoFocus?: boolean;
  onChange: (value: string) => void;
};

const DEBOUNCE_MS = 150;

/** One prompt argument or template variable: a labelled input with the server's completions as a listbox under it. */
export function PromptArgumentField({
  complete,
  completionKey,
  argument,
  value,
  autoFocus,
  onChange,
}: Props) {
  const t = useTranslations('promptArgument');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [active, setActive] = useState(-1);
  // The latest `complete`, without asking again on every render (callers pass a new function each time).
  const completeRef = useRef(complete);
  completeRef.current = complete;
  // A press elsewhere takes the focus from the field (blur) before it is released. Closing the list there
  // would move up what is under it (the dialog's Insert button) away from the pointer, and the click would
  // land on nothing. So a blur during a press closes the list once the press is over, after its click, as
  // Downshift does. Mouse events, not pointer events: a tap's mousedown, and so its blur, come after its
  // pointerup.
  const input = useRef<HTMLInputElement>(null);
  const pressed = useRef(false);
  const closeOnRelease = useRef(false);
  useEffect(() => {
    if (!open) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const down = () => {
      pressed.current = true;
    };
    const up = () => {
      pressed.current = false;
      if (!closeOnRelease.current) return;
      closeOnRelease.current = false;
      // The click comes after the mouseup, in the same task: close once it has been handled.
      timer = setTimeout(() => document.activeElement !== input.current && setOpen(false));
    };
    document.addEventListener('mousedown', down, true);
    document.addEventListener('mouseup', up, true);
    return () => {
      document.removeEventListener('mousedown', down, true);
      document.removeEventListener('mouseup', up, true);
      clearTimeout(timer);
      pressed.current = false;
      closeOnRelease.current = false;
    };
  }, [open]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: completionKey stands for what the latest `complete` (a ref) depends on
  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      completeRef
        .current(value, abort.signal)
        .then((values) => {
          setSuggestions(values.slice(0, 20));
          setActive(-1);
        })
        .catch(() => {
          if (!abort.signal.aborted) setSuggestions([]);
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [open, value, completionKey]);

  const shown = open && !(suggestions.length === 1 && suggestions[0] === value) ? suggestions : [];
  const listId = `${id}-list`;

  // The list shows under the field, in the dialog (which stays put, placement "top"): if it would be cut off
  // by the dialog's bottom or the window's, scroll just enough to show it.
  const list = useRef<HTMLDivElement>(null);
  const listShown = shown.length > 0;
  useEffect(() => {
    if (listShown) list.current?.scrollIntoView({ block: 'nearest' });
  }, [listShown]);

  function pick(choice: string) {
    onChange(choice);
    setOpen(false);
    setSuggestions([]);
  }

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {argument.name}
        {argument.required && (
          <span className="ml-1 text-red-600 dark:text-red-400" title={t('required')}>
            *<span className="sr-only"> {t('requiredNote')}</span>
          </span>
        )}
      </label>
      {argument.description && (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{argument.description}</p>
      )}
      <input
        ref={input}
        id={id}
        role="combobox"
        value={value}
        required={argument.required}
        autoFocus={autoFocus}
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 && shown.length ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
        }}
        onFocus={() => {
          closeOnRelease.current = false;
          setOpen(true);
        }}
        onBlur={() => {
          if (pressed.current) closeOnRelease.current = true;
          else setOpen(false);
        }}
        onKeyDown={(e) => {
          // Keys of an input method's composition (Enter picks its candidate) are not ours.
          if (!shown.length || isInputMethodKey(e)) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const n = shown.length;
            setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : i <= 0 ? n - 1 : i - 1));
          } else if (e.key === 'Enter' && active >= 0 && shown[active] !== undefined) {
            e.preventDefault();
            pick(shown[active]);
          } else if (e.key === 'Escape') {
            // Close the suggestions, not the dialog.
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
        className="mt-1 w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
      />
      <div
        ref={list}
        id={listId}
        role="listbox"
        aria-label={t('suggestions', { name: argument.name })}
        hidden={!shown.length}
        className="mt-1 max-h-40 overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        {shown.map((s, i) => (
          <div
            key={s}
            id={`${listId}-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(s)}
            onKeyDown={(e) => e.key === 'Enter' && pick(s)}
            className={`cursor-pointer rounded px-2 py-1 ${i === active ? 'bg-zinc-100 dark:bg-zinc-800' : ''}`}
          >
            {s}
          </div>
        ))}
      </div>
    </div>
  );
}
