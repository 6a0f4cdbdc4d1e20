'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFailureText } from '@/app/_components/failure-text';
import { AdminApiError, adminFetch } from './admin-fetch';
import { Field, inputClass, useFocusFirstInvalid } from './field';

type Overview = {
  provider: {
    name: string;
    issuer: string;
    clientId: string;
    hasClientSecret: boolean;
    allowedDomains: string[];
    updatedAt: string;
    error: string | null;
  } | null;
  redirectUri: string;
  passwordSignIn: boolean;
  passwordSignInForced: boolean;
  linked: boolean;
  adminsWithSso: number;
};

/** Examples (URLs and domains, the same in every language). */
const ISSUER_EXAMPLE = 'https://id.example.com/realms/main';
const DOMAINS_EXAMPLE = 'example.com, example.org';
const section = 'space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800';
const button =
  'rounded-md border border-zinc-300 px-3 py-1.5 text-sm aria-disabled:opacity-60 dark:border-zinc-700';

/** Admin ▸ Single sign-on: the OpenID Connect provider, linking the admin's own account, password sign-in. */
export function SsoAdmin({ linkError, justLinked }: { linkError: string | null; justLinked: boolean }) {
  const t = useTranslations('sso.admin');
  const failureText = useFailureText();
  const [data, setData] = useState<Overview | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [passwordError, setPasswordError] = useState<string | null>(null);
  // The form's inputs are remounted (new defaults) only on this key: a reload behind the form after a
  // conflict keeps what the admin typed, while the version it sends as If-Match becomes the current one.
  const [formKey, setFormKey] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // The form remounts (a new key) after a save or a removal: where the focus goes then, rather than the
  // page's start (Save, or for a removal, whose button is gone, the form's first field). After each render.
  const focusAfter = useRef<'save' | 'first' | null>(null);
  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (!target || !formRef.current) return;
    const el = formRef.current.querySelector<HTMLElement>(target === 'save' ? '[type=submit]' : 'input');
    el?.focus();
  });
  // After a refused save, the first field in error.
  useFocusFirstInvalid(formRef, fields);

  const load = useCallback(() => {
    adminFetch<Overview>('/api/admin/sso').then(
      (d) => {
        setData(d);
        setFormKey((k) => k ?? d.provider?.updatedAt ?? 'new');
      },
      (e) => setLoadError(failureText(e)),
    );
  }, [failureText]);
  useEffect(load, [load]);

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const form = new FormData(event.currentTarget);
    const text = (key: string) => String(form.get(key) ?? '');
    const secret = text('clientSecret');
    setSaving(true);
    setStatus(null);
    setError(null);
    setFields({});
    const version = data?.provider?.updatedAt;
    try {
      const next = await adminFetch<Overview>('/api/admin/sso', {
        method: 'PUT',
        ...(version && { headers: { 'If-Match': version } }),
        json: {
          name: text('name'),
          issuer: text('issuer'),
          clientId: text('clientId'),
          ...(secret && { clientSecret: secret }),
          allowedDomains: text('allowedDomains')
            .split(/[\s,]+/)
            .filter(Boolean),
        },
      });
      setData(next);
      if (document.activeElement?.closest('form') === formRef.current) focusAfter.current = 'save';
      setFormKey(next.provider?.updatedAt ?? 'new');
      setStatus(t('saved'));
    } catch (e) {
      if (e instanceof AdminApiError && e.status === 409 && version) {
        // Another admin or tab saved since this form was opened (the stored version moved): nothing was
        // written; keep the typed values, load the current version behind them (a second save then
        // replaces it knowingly). Other 409s (password sign-in would lock admins out) are shown as is.
        const current = await adminFetch<Overview>('/api/admin/sso').catch(() => null);
        if (current && current.provider?.updatedAt !== version) {
          setData(current);
          setError(t('changedMeanwhile'));
          return;
        }
      }
      setError(failureText(e));
      if (e instanceof AdminApiError && e.fields) setFields(e.fields);
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    setError(null);
    setStatus(null);
    try {
      const next = await adminFetch<Overview>('/api/admin/sso', { method: 'DELETE' });
      setData(next);
      focusAfter.current = 'first';
      setFormKey('new');
      setStatus(t('removed'));
    } catch (e) {
      setError(failureText(e));
    }
  }

  async function setPasswordSignIn(on: boolean) {
    setPasswordError(null);
    setData((d) => (d ? { ...d, passwordSignIn: on } : d)); // show the change at once; the answer confirms it
    try {
      await adminFetch('/api/admin/settings', { method: 'PATCH', json: { passwordSignIn: on } });
    } catch (e) {
      setPasswordError(failureText(e));
    }
    load();
  }

  if (!data) return <p className="p-4 text-sm text-zinc-500">{loadError ?? t('loading')}</p>;
  const p = data.provider;
  return (
    <div className="max-w-2xl space-y-6 p-4">
      <h1 className="text-xl font-semibold">{t('title')}</h1>
      <p className="text-sm text-zinc-500">{t('intro')}</p>

      <section className={section} aria-labelledby="sso-provider">
        <h2 id="sso-provider" className="font-semibold">
          {t('provider')}
        </h2>
        <p className="text-sm">
          {t('redirectUri')}{' '}
          <code className="break-all rounded bg-zinc-100 px-1 dark:bg-zinc-900">{data.redirectUri}</code>
        </p>
        {p?.error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {p.error}
          </p>
        )}
        <form ref={formRef} key={formKey ?? 'new'} method="post" onSubmit={save} className="space-y-3">
          <Field label={t('name')} error={fields.name}>
            <input name="name" required maxLength={60} defaultValue={p?.name ?? ''} className={inputClass} />
          </Field>
          <Field label={t('issuer')} error={fields.issuer}>
            <input
              name="issuer"
              type="url"
              required
              placeholder={ISSUER_EXAMPLE}
              defaultValue={p?.issuer ?? ''}
              className={inputClass}
            />
          </Field>
          <Field label={t('clientId')} error={fields.clientId}>
            <input name="clientId" required defaultValue={p?.clientId ?? ''} className={inputClass} />
          </Field>
          <Field label={t('clientSecret')} error={fields.clientSecret}>
            <input
              name="clientSecret"
              type="password"
              autoComplete="off"
              placeholder={p?.hasClientSecret ? t('secretKept') : ''}
              className={inputClass}
            />
          </Field>
          <Field label={t('domains')} error={fields.allowedDomains}>
            <input
              name="allowedDomains"
              required
              placeholder={DOMAINS_EXAMPLE}
              defaultValue={p?.allowedDomains.join(', ') ?? ''}
              className={inputClass}
            />
          </Field>
          <p className="text-xs text-zinc-500">{t('domainsHelp')}</p>
          {error && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <BusyButton type="submit" busy={saving} className={button}>
              {saving ? t('checking') : t('save')}
            </BusyButton>
            {p && (
              <button type="button" onClick={() => void remove()} className={button}>
                {t('remove')}
              </button>
            )}
          </div>
        </form>
        {status && (
          <p role="status" className="text-sm text-zinc-500">
            {status}
          </p>
        )}
      </section>

      {p && (
        <section className={section} aria-labelledby="sso-link">
          <h2 id="sso-link" className="font-semibold">
            {t('yourAccount')}
          </h2>
          {justLinked && data.linked && (
            <p role="status" className="text-sm">
              {t('justLinked', { name: p.name })}
            </p>
          )}
          {linkError && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {linkError === 'domain_not_allowed'
                ? t('linkDomain')
                : linkError === 'email_not_verified'
                  ? t('linkUnverified', { name: p.name })
                  : linkError === 'identity_not_usable'
                    ? t('linkUnusable', { name: p.name })
                    : t('linkFailed', { code: linkError })}
            </p>
          )}
          {data.linked ? (
            <p className="text-sm">{t('linked', { name: p.name })}</p>
          ) : (
            <form method="post" action="/api/auth-form/sso-link" className="space-y-2">
              <p className="text-sm text-zinc-500">{t('linkHelp', { name: p.name })}</p>
              <button type="submit" className={button}>
                {t('link', { name: p.name })}
              </button>
            </form>
          )}
        </section>
      )}

      <section className={section} aria-labelledby="sso-password">
        <h2 id="sso-password" className="font-semibold">
          {t('passwordTitle')}
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={data.passwordSignIn}
            onChange={(e) => void setPasswordSignIn(e.target.checked)}
          />
          {t('passwordToggle')}
        </label>
        <p className="text-xs text-zinc-500">{t('passwordHelp')}</p>
        {data.passwordSignInForced && (
          <p className="text-sm text-amber-700 dark:text-amber-400">{t('forced')}</p>
        )}
        {passwordError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {passwordError}
          </p>
        )}
      </section>
    </div>
  );
}
