'use client';

import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFailureText } from '@/app/_components/failure-text';
import { AdminApiError, adminFetch } from './admin-fetch';
import { Field, inputClass, useFocusFirstInvalid } from './field';
import { splitRefusal } from './refusal';

/** The fields that show their own error (Field): a reason for one is not repeated by the form's alert. */
const FIELDS = ['name', 'email', 'password', 'role'];

/**
 * Admins create accounts directly (works while self sign-up is closed). Created, the account is announced
 * (the table's new row says nothing to a screen reader) and the focus goes to Name, for the next one.
 */
export function CreateUserForm({ onCreated }: { onCreated: () => void }) {
  const t = useTranslations('admin.createUser');
  const failureText = useFailureText();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused save, the first field in error.
  useFocusFirstInvalid(formRef, fields);

  async function submit(form: HTMLFormElement) {
    if (pending) return;
    const data = new FormData(form);
    setPending(true);
    setFields({});
    setError(null);
    setCreated(null);
    try {
      const user = await adminFetch<{ email: string }>('/api/admin/users', {
        method: 'POST',
        json: {
          name: data.get('name'),
          email: data.get('email'),
          password: data.get('password'),
          role: data.get('role'),
        },
      });
      form.reset();
      setCreated(t('created', { email: user.email }));
      form.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
      onCreated();
    } catch (err) {
      // Each reason once: at its field, or (belonging to none) in the form's alert.
      const refusal = splitRefusal(
        failureText(err),
        err instanceof AdminApiError ? err.fields : undefined,
        FIELDS,
      );
      setFields(refusal.fields);
      setError(refusal.formError);
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      ref={formRef}
      // Sent before the script runs, the password goes in the body of a request to this page, not in its URL.
      method="post"
      className="grid gap-3 rounded-lg border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(e.currentTarget);
      }}
    >
      <h2 className="font-semibold sm:col-span-2">{t('title')}</h2>
      <Field label={t('name')} error={fields.name}>
        <input name="name" required className={inputClass} />
      </Field>
      <Field label={t('email')} error={fields.email}>
        <input name="email" type="email" required className={inputClass} />
      </Field>
      <Field label={t('password')} error={fields.password}>
        <input
          name="password"
          type="password"
          minLength={8}
          required
          autoComplete="new-password"
          className={inputClass}
        />
      </Field>
      <Field label={t('role')} error={fields.role}>
        <select name="role" defaultValue="user" className={inputClass}>
          <option value="user">{t('roleUser')}</option>
          <option value="admin">{t('roleAdmin')}</option>
        </select>
      </Field>
      {error && (
        <p role="alert" className="text-sm text-red-600 sm:col-span-2 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <BusyButton
          type="submit"
          busy={pending}
          className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white aria-disabled:opacity-50"
        >
          {t('title')}
        </BusyButton>
        {/* Always there, so that its text is announced when it comes. */}
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          {created}
        </p>
      </div>
    </form>
  );
}
