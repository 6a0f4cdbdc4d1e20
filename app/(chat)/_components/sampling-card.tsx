'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFocusHandOff } from '@/app/_components/focus-hand-off';
import type { ChatDataParts } from '@/lib/schemas/chat';
import { useAnswerRequest } from './turn-request-answer';

type Data = ChatDataParts['sampling'];

const BUTTON =
  'rounded px-3 py-1 text-xs font-semibold text-white disabled:opacity-50 aria-disabled:opacity-50';

/**
 * A server asking to use the model (MCP sampling), inside its tool card: what it would send (system
 * prompt, messages, length limit) with Approve / Deny, and the last message editable before approving.
 */
export function SamplingCard({ id, data, active }: { id: string; data: Data; active: boolean }) {
  const t = useTranslations('sampling');
  const format = useFormatter();
  const answer = useAnswerRequest();
  const status =
    (data.status === 'pending' || data.status === 'running') && !active ? 'expired' : data.status;
  const lastUser = data.request.messages.findLastIndex((m) => m.role === 'user');
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(data.request.messages[lastUser]?.text ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // Answered (here or in another tab) or expired, Approve / Deny go and the outcome line takes their
  // place: the focus, if it was on them (or in the message being edited), moves there.
  const outcome = useRef<HTMLParagraphElement>(null);
  const answering = useFocusHandOff(() => outcome.current);

  async function send(reply: Parameters<typeof answer>[1]) {
    setSending(true);
    const outcome = await answer(id, reply);
    setSending(false);
    setFailure(outcome.ok ? null : outcome.error);
  }

  return (
    <div
      data-sampling={data.server}
      data-request-id={id}
      data-status={status}
      className="space-y-2 rounded border border-violet-200 bg-violet-50 p-2 dark:border-violet-900 dark:bg-violet-950"
    >
      <p className="text-xs">
        {t.rich(data.auto ? 'used' : 'asks', {
          server: data.server,
          max: format.number(data.request.maxTokens),
          b: (chunks) => <strong>{chunks}</strong>,
        })}
      </p>
      {data.request.systemPrompt && (
        <p className="whitespace-pre-wrap break-words text-xs">
          <span className="text-zinc-500">{t('systemPrompt')}</span>
          {data.request.systemPrompt}
        </p>
      )}
      <ol className="space-y-1">
        {data.request.messages.map((m, i) => (
          <li
            key={i}
            className="whitespace-pre-wrap break-words rounded bg-white/60 p-1 text-xs dark:bg-black/20"
          >
            <span className="text-zinc-500">{m.role === 'user' ? t('user') : t('assistant')}</span>
            {m.text}
          </li>
        ))}
      </ol>
      {status === 'pending' && (
        <div ref={answering} className="space-y-2">
          {editing && lastUser >= 0 && (
            <label className="block text-xs">
              {t('editInstead')}
              <textarea
                value={text}
                onChange={(e) => setText(e.target.value)}
                rows={3}
                className="mt-1 w-full rounded border border-zinc-300 bg-white p-1 text-sm dark:border-zinc-600 dark:bg-zinc-900"
              />
            </label>
          )}
          {failure && (
            <p role="alert" className="text-xs text-red-700 dark:text-red-300">
              {failure}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            {/* Busy sending the answer, they keep the focus (BusyButton); an emptied message is a real disabled. */}
            <BusyButton
              type="button"
              busy={sending}
              disabled={editing && !text.trim()}
              onClick={() => void send(editing ? { action: 'approve', text } : { action: 'approve' })}
              className={`${BUTTON} bg-green-600 hover:bg-green-700`}
            >
              {t('approve')}
            </BusyButton>
            <BusyButton
              type="button"
              busy={sending}
              onClick={() => void send({ action: 'deny' })}
              className={`${BUTTON} bg-zinc-600 hover:bg-zinc-700`}
            >
              {t('deny')}
            </BusyButton>
            {lastUser >= 0 && !editing && (
              <button
                type="button"
                onClick={() => setEditing(true)}
                className="rounded px-3 py-1 text-xs font-semibold text-zinc-700 hover:underline dark:text-zinc-300"
              >
                {t('editMessage')}
              </button>
            )}
          </div>
        </div>
      )}
      {status !== 'pending' && (
        <p ref={outcome} role="status" tabIndex={-1} className="text-xs text-zinc-600 dark:text-zinc-400">
          {t(`status.${status}`)}
          {data.model ? ` · ${data.model}` : ''}
          {data.error ? `: ${data.error}` : ''}
        </p>
      )}
      {data.answer && (
        <p data-sampling-answer className="whitespace-pre-wrap break-words text-xs">
          <span className="text-zinc-500">{t('model')}</span>
          {data.answer}
        </p>
      )}
    </div>
  );
}
