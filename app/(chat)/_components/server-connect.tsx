'use client';

import { useTranslations } from 'next-intl';
import { type RefCallback, type RefObject, useId, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFailureText } from '@/app/_components/failure-text';
import { useFocusHandOff } from '@/app/_components/focus-hand-off';
import { answerError, fetchOrUnreachable } from '@/app/_components/request-errors';
import type { CatalogServer } from './tool-selection';

type Props = {
  server: CatalogServer;
  onConnected: () => void;
  /** The row's switch of this server: the focus goes there when what had it goes and nothing replaces it. */
  rowSwitch: RefObject<HTMLInputElement | null>;
};

/**
 * A request to the user's connection routes of one server (`/api/mcp/connections/<server><path>`),
 * with its busy flag and error message: the JSON answer, or null when it failed (the error is shown).
 */
function useConnectionRequest(server: string) {
  const failureText = useFailureText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send<T>(method: string, path: string, body?: unknown): Promise<T | null> {
    setBusy(true);
    setError(null);
    try {
      const res = await fetchOrUnreachable(`/api/mcp/connections/${encodeURIComponent(server)}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      if (!res.ok) throw await answerError(res);
      return (await res.json().catch(() => null)) as T;
    } catch (err) {
      setError(failureText(err));
      return null;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, send };
}

/**
 * What a user does before a server can run for them: enter the values the admin marked "each user
 * supplies this" (write-only: the form never shows a stored value), or sign in with the server's
 * OAuth provider ("Connect <server>"): the sign-in page's domain and full URL are shown first, and
 * only a click on "Continue to <domain>" opens it; it returns to this conversation.
 */
export function ServerConnect({ server, onConnected, rowSwitch }: Props) {
  const t = useTranslations('serverConnect');
  const tc = useTranslations('common');
  const { busy, error, send } = useConnectionRequest(server.name);
  /** The authorization server's page, shown (domain and full URL) before the browser goes there. */
  const [signInUrl, setSignInUrl] = useState<string | null>(null);
  const id = useId();
  // The values' form, Connect, the sign-in page's panel and Disconnect go once their work is done: the
  // focus, if it was on them, moves on to what takes their place here, else to the row's switch.
  const area = useRef<HTMLDivElement>(null);
  const goes = useFocusHandOff(
    () => area.current?.querySelector<HTMLElement>('a[href], button, input') ?? rowSwitch.current,
  );
  const connect = server.connect;
  if (!connect)
    return server.signedIn ? (
      <Disconnect server={server} onDone={onConnected} area={area} goes={goes} />
    ) : null;
  const missing = connect.values.filter((v) => !v.set);

  async function saveValues(form: HTMLFormElement) {
    const data = new FormData(form);
    const values = Object.fromEntries(missing.map((v) => [v.key, String(data.get(v.key) ?? '')]));
    if (await send('PUT', '/values', { values })) onConnected();
  }

  async function signIn() {
    const body = await send<{ url?: string; authorized?: boolean }>('POST', '/authorize', {
      returnTo: window.location.pathname,
    });
    if (body?.url) setSignInUrl(body.url);
    else if (body) onConnected();
  }

  return (
    <div ref={area} className="mt-1 ml-6 text-xs">
      {missing.length > 0 ? (
        <form
          ref={goes}
          // The values are secrets: sent before the script runs, they go in a body, not in a URL.
          method="post"
          className="space-y-1"
          onSubmit={(e) => {
            e.preventDefault();
            void saveValues(e.currentTarget);
          }}
        >
          {missing.map((v) => (
            <label key={v.key} htmlFor={`${id}-${v.key}`} className="block">
              <span className="text-zinc-600 dark:text-zinc-400">
                {t('value', { key: v.key, server: server.name })}
              </span>
              <input
                id={`${id}-${v.key}`}
                name={v.key}
                type="password"
                autoComplete="off"
                required
                className="mt-0.5 block w-full rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
              />
            </label>
          ))}
          <BusyButton
            type="submit"
            busy={busy}
            className="rounded bg-zinc-900 px-2 py-1 text-white aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
          >
            {busy ? t('saving') : t('save')}
          </BusyButton>
          <p className="text-zinc-500">{t('stored')}</p>
        </form>
      ) : connect.oauth && signInUrl ? (
        <div
          ref={goes}
          data-sign-in-url
          className="space-y-1 rounded border border-zinc-200 p-2 dark:border-zinc-700"
        >
          <p>
            {t.rich('signInAt', {
              server: server.name,
              host: new URL(signInUrl).host,
              b: (chunks) => <strong>{chunks}</strong>,
            })}
          </p>
          <p className="font-mono break-all text-zinc-500">{signInUrl}</p>
          <div className="flex gap-2">
            <a
              href={signInUrl}
              rel="noreferrer"
              className="rounded bg-zinc-900 px-2 py-1 text-white dark:bg-zinc-100 dark:text-zinc-900"
            >
              {t('continueTo', { host: new URL(signInUrl).host })}
            </a>
            <button type="button" onClick={() => setSignInUrl(null)} className="px-2 py-1">
              {tc('cancel')}
            </button>
          </div>
        </div>
      ) : connect.oauth ? (
        <BusyButton
          ref={goes}
          type="button"
          busy={busy}
          onClick={() => void signIn()}
          className="rounded bg-zinc-900 px-2 py-1 text-white aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {busy ? t('opening') : t('connect', { server: server.name })}
        </BusyButton>
      ) : null}
      {error && (
        <p role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** Forgets the user's sign-in to a server (its tokens) and closes their connection. */
function Disconnect({
  server,
  onDone,
  area,
  goes,
}: {
  server: CatalogServer;
  onDone: () => void;
  area: RefObject<HTMLDivElement | null>;
  goes: RefCallback<HTMLElement>;
}) {
  const t = useTranslations('serverConnect');
  const { busy, error, send } = useConnectionRequest(server.name);
  async function disconnect() {
    if (await send('DELETE', '')) onDone();
  }
  return (
    <div ref={area} className="mt-1 ml-6 text-xs">
      <BusyButton
        ref={goes}
        type="button"
        busy={busy}
        onClick={() => void disconnect()}
        className="text-zinc-600 underline hover:text-zinc-900 aria-disabled:opacity-50 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        {busy ? t('disconnecting') : t('disconnect', { server: server.name })}
      </BusyButton>
      {error && (
        <p role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
