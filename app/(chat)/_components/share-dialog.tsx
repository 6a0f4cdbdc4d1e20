'use client';

import { X } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFocusHandOff } from '@/app/_components/focus-hand-off';
import { useFailureText } from '@/app/_components/failure-text';
import { fetchOrUnreachable } from '@/app/_components/request-errors';
import { Modal, ModalClose } from '@/app/_components/modal';

type Props = {
  conversationId: string;
  onClose: () => void;
  /** Where focus goes when it closes, when not where it was on opening (see Modal). */
  returnFocus?: () => HTMLElement | null | undefined;
};
type Created = { token: string; url: string };

async function errorMessage(res: Response, fallback: string): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  return typeof body?.error?.message === 'string' ? body.error.message : fallback;
}

const BUTTON =
  'rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';

/** Creates a public, read-only snapshot link of a conversation; copy or revoke it right away. */
export function ShareDialog({ conversationId, onClose, returnFocus }: Props) {
  const linkRef = useRef<HTMLInputElement>(null);
  const [includeToolDetails, setIncludeToolDetails] = useState(false);
  const [includeOwnerName, setIncludeOwnerName] = useState(false);
  const [includeFiles, setIncludeFiles] = useState(false);
  const t = useTranslations('attachments');
  const ts = useTranslations('shareDialog');
  const tc = useTranslations('common');
  const failureText = useFailureText();
  const [created, setCreated] = useState<Created | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  // Create link and Revoke link go once they have done their work: the focus, if it was on them, goes on to
  // the control that takes their place (Copy, Create link again), not to the page's start.
  const copyRef = useRef<HTMLButtonElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const goes = useFocusHandOff(() => (created ? copyRef : createRef).current);

  async function create() {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const res = await fetchOrUnreachable(`/api/conversations/${encodeURIComponent(conversationId)}/share`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ includeToolDetails, includeOwnerName, includeFiles }),
      });
      if (res.status !== 201) throw new Error(await errorMessage(res, ts('createFailed')));
      setCreated((await res.json()) as Created);
      setCopied(false);
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!created) return;
    setBusy(true);
    setError(null);
    try {
      const res = await fetchOrUnreachable(`/api/shares/${encodeURIComponent(created.token)}`, {
        method: 'DELETE',
      });
      // 404: already revoked (or the conversation is gone) — the link is dead either way.
      if (!res.ok && res.status !== 404) throw new Error(await errorMessage(res, ts('revokeFailed')));
      setCreated(null);
      setStatus(ts('revoked'));
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.url);
      setCopied(true);
    } catch {
      linkRef.current?.select();
      setError(ts('copyFailed'));
    }
  }

  return (
    <Modal
      title={ts('title')}
      onClose={onClose}
      returnFocus={returnFocus}
      className="w-[min(30rem,92vw)] p-5"
    >
      <ModalClose
        type="button"
        aria-label={tc('close')}
        className="absolute top-4 right-4 rounded px-1.5 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <X aria-hidden className="size-4" />
      </ModalClose>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{ts('intro')}</p>

      {created ? (
        // Keyed apart, so one goes and the other comes (not one div changed in place): useFocusHandOff.
        <div key="link" ref={goes} className="mt-4 space-y-3">
          <label className="block text-sm font-medium">
            {ts('link')}
            <input
              ref={linkRef}
              readOnly
              value={created.url}
              onFocus={(e) => e.currentTarget.select()}
              className="mt-1 block w-full rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
            />
          </label>
          <div className="flex flex-wrap gap-2">
            <button ref={copyRef} type="button" onClick={() => void copy()} className={BUTTON}>
              {copied ? ts('copied') : ts('copy')}
            </button>
            <BusyButton
              type="button"
              onClick={() => void revoke()}
              busy={busy}
              className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50 aria-disabled:opacity-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
            >
              {ts('revoke')}
            </BusyButton>
          </div>
        </div>
      ) : (
        <div key="create" ref={goes} className="mt-4 space-y-2 text-sm">
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              checked={includeToolDetails}
              onChange={(e) => setIncludeToolDetails(e.target.checked)}
              className="mt-0.5"
            />
            <span>
              {ts('includeTools')}
              <span className="block text-xs text-zinc-500">{ts('includeToolsHint')}</span>
            </span>
          </label>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              checked={includeOwnerName}
              onChange={(e) => setIncludeOwnerName(e.target.checked)}
              className="mt-0.5"
            />
            <span>{ts('showName')}</span>
          </label>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              checked={includeFiles}
              onChange={(e) => setIncludeFiles(e.target.checked)}
              className="mt-0.5"
            />
            <span>{t('includeInShare')}</span>
          </label>
          <BusyButton
            ref={createRef}
            type="button"
            onClick={() => void create()}
            busy={busy}
            className="mt-2 rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
          >
            {busy ? ts('creating') : ts('create')}
          </BusyButton>
        </div>
      )}

      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <p role="status" className="mt-3 text-sm text-zinc-600 empty:hidden dark:text-zinc-400">
        {status}
      </p>
      <div className="mt-4 border-t border-zinc-200 pt-3 text-sm dark:border-zinc-800">
        <Link href="/shares" onClick={onClose} className="text-blue-700 underline dark:text-blue-400">
          {ts('myLinks')}
        </Link>
      </div>
    </Modal>
  );
}
