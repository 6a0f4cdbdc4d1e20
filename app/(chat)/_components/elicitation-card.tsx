'use client';

import { useTranslations } from 'next-intl';
import { type RefCallback, useMemo, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFocusHandOff } from '@/app/_components/focus-hand-off';
import { checkAnswer, type ElicitField, type ElicitValue, formFields } from '@/lib/elicitation-form';
import { FieldInput } from './elicitation-field';
import type { ChatDataParts } from '@/lib/schemas/chat';
import { useAnswerRequest } from './turn-request-answer';

type Data = ChatDataParts['elicitation'];
type Values = Record<string, ElicitValue | undefined>;

const BUTTON = 'rounded px-3 py-1 text-xs font-semibold text-white aria-disabled:opacity-50';

const domainOf = (url: string | undefined) => {
  try {
    return new URL(url ?? '').host;
  } catch {
    return url ?? '';
  }
};

type Answering = { requestId: string; ref: RefCallback<HTMLElement> };

function Form({ requestId, fields, ref }: Answering & { fields: ElicitField[] }) {
  const t = useTranslations('elicitation');
  const answer = useAnswerRequest();
  const [values, setValues] = useState<Values>(() =>
    Object.fromEntries(fields.map((f) => [f.key, f.default])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function send(reply: Parameters<typeof answer>[1]) {
    setSending(true);
    setFailure(null);
    const outcome = await answer(requestId, reply);
    setSending(false);
    if (outcome.ok) return;
    setFailure(outcome.error);
    const fieldErrors = Object.entries(outcome.fields ?? {}).map(([k, v]) => [
      k.replace(/^content\./, ''),
      v,
    ]);
    if (fieldErrors.length) setErrors(Object.fromEntries(fieldErrors));
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const checked = checkAnswer(fields, values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    void send({ action: 'accept', content: checked.content });
  }

  return (
    <form ref={ref} onSubmit={submit} noValidate className="space-y-2">
      {fields.map((f) => (
        <FieldInput
          key={f.key}
          field={f}
          value={values[f.key]}
          error={errors[f.key]}
          onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))}
        />
      ))}
      {failure && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <BusyButton type="submit" busy={sending} className={`${BUTTON} bg-green-600 hover:bg-green-700`}>
          {t('submit')}
        </BusyButton>
        <Refuse busy={sending} send={send} />
      </div>
    </form>
  );
}

/** Decline and Cancel: while an answer is on its way they are unavailable but keep the focus (BusyButton). */
function Refuse({
  busy,
  send,
}: {
  busy: boolean;
  send: (reply: { action: 'decline' } | { action: 'cancel' }) => Promise<void>;
}) {
  const t = useTranslations('elicitation');
  return (
    <>
      <BusyButton
        type="button"
        busy={busy}
        onClick={() => void send({ action: 'decline' })}
        className={`${BUTTON} bg-zinc-600 hover:bg-zinc-700`}
      >
        {t('decline')}
      </BusyButton>
      <BusyButton
        type="button"
        busy={busy}
        onClick={() => void send({ action: 'cancel' })}
        className="rounded px-3 py-1 text-xs font-semibold text-zinc-700 hover:underline aria-disabled:opacity-50 dark:text-zinc-300"
      >
        {t('cancel')}
      </BusyButton>
    </>
  );
}

function LinkRequest({ requestId, url, ref }: Answering & { url: string }) {
  const t = useTranslations('elicitation');
  const answer = useAnswerRequest();
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  async function send(reply: Parameters<typeof answer>[1]) {
    setSending(true);
    const outcome = await answer(requestId, reply);
    setSending(false);
    setFailure(outcome.ok ? null : outcome.error);
  }
  return (
    <div ref={ref} className="space-y-2">
      <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{url}</p>
      {failure && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          // The link opens each time; the server hears "accept" once (not again while it is on its way).
          onClick={() => sending || void send({ action: 'accept' })}
          className={`${BUTTON} bg-blue-600 hover:bg-blue-700`}
        >
          {t('open', { domain: domainOf(url) })}
        </a>
        <Refuse busy={sending} send={send} />
      </div>
    </div>
  );
}

/**
 * A server's question inside its tool card (MCP elicitation): a form built from the requested schema,
 * or a link to open (its domain shown plainly). Answerable only while the turn runs.
 */
export function ElicitationCard({ id, data, active }: { id: string; data: Data; active: boolean }) {
  const t = useTranslations('elicitation');
  const form = useMemo(
    () => (data.mode === 'form' ? formFields(data.schema) : null),
    [data.mode, data.schema],
  );
  const status = data.status === 'pending' && !active ? 'expired' : data.status;
  const domain = domainOf(data.url);
  // Answered (here or in another tab) or expired, the form goes and the outcome line takes its place: the
  // focus, if it was in the form, moves there.
  const outcome = useRef<HTMLParagraphElement>(null);
  const answering = useFocusHandOff(() => outcome.current);
  return (
    <div
      data-elicitation={data.server}
      data-request-id={id}
      data-status={status}
      className="space-y-2 rounded border border-blue-200 bg-blue-50 p-2 dark:border-blue-900 dark:bg-blue-950"
    >
      <p className="text-xs">
        {t.rich(data.mode === 'url' ? 'asksUrl' : 'asksForm', {
          server: data.server,
          domain,
          b: (chunks) => <strong>{chunks}</strong>,
          site: (chunks) => <strong data-elicitation-domain>{chunks}</strong>,
        })}
      </p>
      <p className="whitespace-pre-wrap break-words text-sm">{data.message}</p>
      {status === 'pending' && form && 'fields' in form && (
        <Form requestId={id} fields={form.fields} ref={answering} />
      )}
      {status === 'pending' && data.mode === 'url' && data.url && (
        <LinkRequest requestId={id} url={data.url} ref={answering} />
      )}
      {status !== 'pending' && (
        <p ref={outcome} role="status" tabIndex={-1} className="text-xs text-zinc-600 dark:text-zinc-400">
          {t(`status.${status}`)}
          {status === 'opened' || status === 'completed' ? ` (${domain})` : ''}
          {data.error ? `: ${data.error}` : ''}
        </p>
      )}
      {status === 'accepted' && data.content && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs">
          {Object.entries(data.content).map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-zinc-500">{k}</dt>
              <dd className="break-words">{Array.isArray(v) ? v.join(', ') : String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
