'use client';

import { useEffect, useState } from 'react';
import { readDraft, writeDraft } from '@/lib/drafts';
import { takeHeldTyping } from './type-ahead';

/** The message box's text and caret; the text is kept as the conversation's draft (`draftKey`) until sent. */
export function useDraftText(draftKey: string | undefined) {
  const [text, setTextState] = useState('');
  const [caret, setCaret] = useState(0);

  /** The text, kept as this conversation's draft until sent. */
  function setText(next: string) {
    setTextState(next);
    if (draftKey) writeDraft(draftKey, next);
  }

  // The draft comes back after the page is hydrated (the server cannot know it).
  useEffect(() => {
    if (!draftKey) return;
    const draft = readDraft(draftKey);
    if (draft) {
      setTextState(draft);
      setCaret(draft.length);
    }
  }, [draftKey]);

  // What was typed while this box's chat was loading ("New chat", type-ahead.ts) follows the draft.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the box mounts.
  useEffect(() => {
    const typed = takeHeldTyping();
    if (!typed) return;
    const next = (draftKey ? readDraft(draftKey) : '') + typed;
    setText(next);
    setCaret(next.length);
  }, []);

  return { text, setText, caret, setCaret };
}
