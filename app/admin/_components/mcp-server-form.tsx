'use client';

import { useTranslations } from 'next-intl';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { Modal } from '@/app/_components/modal';
import { useFailureText } from '@/app/_components/failure-text';
import { AdminApiError, adminFetch } from '@/app/admin/_components/admin-fetch';
import { BUILTIN_SERVERS, type McpServerConfig } from '@/lib/schemas/mcp';
import { CommandPreview } from './command-preview';
import { FieldBox } from './mcp-field-box';
import { McpAccessFields } from './mcp-access-fields';
import { McpClientFields } from './mcp-client-fields';
import {
  addError,
  type Draft,
  type Errors,
  FIELDS,
  INPUT,
  type Field,
  lines,
  MASK,
  SHORT,
  type Transport,
  toConfig,
  toDraft,
} from './mcp-server-draft';
import { type TestResult, TestResultPanel } from './mcp-test-result';

type Props = {
  /** The server as the list showed it; `updatedAt` is the version a save sends back as If-Match. */
  server: (McpServerConfig & { id: string; updatedAt: string }) | null;
  onSaved: () => void;
  onClose: () => void;
  /** Where focus goes when it closes (the row's actions button, when opened from its menu). */
  returnFocus?: () => HTMLElement | null | undefined;
};

/** Protocol names: the same in every language. */
const TRANSPORTS: Transport[] = ['stdio', 'http', 'sse', 'builtin'];
const BUTTON =
  'rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 aria-disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';

/** Add or edit an MCP server in a modal dialog: fields per transport, command preview, test connection, save. */
export function McpServerForm({ server, onSaved, onClose, returnFocus }: Props) {
  const t = useTranslations('admin.mcpForm');
  const failureText = useFailureText();
  const formRef = useRef<HTMLFormElement>(null);
  const base = useId();
  const [initial] = useState(() => toDraft(server));
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [result, setResult] = useState<TestResult | null>(null);
  const unchanged = JSON.stringify(draft) === JSON.stringify(initial);

  // After a failed check (not while typing), move focus to the first field in error.
  const focusError = useRef(false);
  useEffect(() => {
    if (!focusError.current || !errors) return;
    focusError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setResult(null);
  };
  const bind = (field: Exclude<Field, 'oauth'>) => ({
    id: `${base}-${field}`,
    value: draft[field],
    onChange: (e: { target: { value: string } }) => {
      update({ [field]: e.target.value });
      setErrors((prev) => ({ ...prev, [field]: undefined }));
    },
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${base}-${field}-error` : undefined,
  });
  const box = (field: Field, label: string, control: ReactNode) => (
    <FieldBox
      id={`${base}-${field}`}
      label={label}
      error={
        errors[field] && (/^[a-z]/.test(errors[field]) ? `${SHORT[field]} ${errors[field]}` : errors[field])
      }
    >
      {control}
    </FieldBox>
  );

  function showApiError(err: unknown) {
    if (!(err instanceof AdminApiError)) return setErrors({ form: failureText(err) });
    const next: Errors = {};
    for (const [path, message] of Object.entries(err.fields ?? {})) addError(next, path.split('.'), message);
    if (!next.form && FIELDS.every((f) => !next[f])) next.form = failureText(err);
    focusError.current = true;
    setErrors(next);
  }

  async function run(kind: 'test' | 'save') {
    if (busy) return;
    const { config, errors: found } = toConfig(draft);
    focusError.current = true;
    setErrors(found);
    if (!config) return;
    setBusy(kind);
    if (kind === 'test') setResult(null);
    try {
      const at = server ? `/api/mcp/servers/${encodeURIComponent(server.id)}` : '/api/mcp/servers';
      if (kind === 'test') {
        const saved = server && unchanged;
        setResult(
          await adminFetch<TestResult>(saved ? `${at}/test` : '/api/mcp/servers/test', {
            method: 'POST',
            ...(saved ? {} : { json: config }),
          }),
        );
      } else {
        // Saved over a newer version (another admin or tab): a 409, shown here, and the draft stays.
        await adminFetch(at, {
          method: server ? 'PATCH' : 'POST',
          json: config,
          ...(server && { headers: { 'if-match': server.updatedAt } }),
        });
        onSaved();
      }
    } catch (err) {
      showApiError(err);
    } finally {
      setBusy(null);
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run('save');
  };
  const remote = draft.transport === 'http' || draft.transport === 'sse';
  const maskedChange =
    server && !unchanged && (draft.env + draft.headers + draft.oauthClientSecret).includes(MASK);
  const pairsArea = (field: 'args' | 'env' | 'headers') => (
    <textarea
      {...bind(field)}
      rows={Math.min(10, Math.max(3, draft[field].split('\n').length + 1))}
      wrap="off"
      spellCheck={false}
      autoCapitalize="off"
      className={`${INPUT} font-mono`}
    />
  );
  const timeoutBox = box(
    'timeoutMs',
    t('timeout'),
    <input {...bind('timeoutMs')} inputMode="numeric" className={INPUT} />,
  );

  return (
    <Modal
      title={server ? t('editTitle', { name: server.name }) : t('addTitle')}
      onClose={onClose}
      returnFocus={returnFocus}
      closeOnOutsideClick={false}
      className="max-h-[calc(100dvh-1rem)] w-[40rem] max-w-[calc(100vw-1rem)] p-4 sm:p-5"
    >
      <form ref={formRef} onSubmit={submit} noValidate className="mt-3 space-y-3">
        {box(
          'name',
          t('name'),
          <input {...bind('name')} autoComplete="off" autoCapitalize="off" className={INPUT} />,
        )}
        <div>
          <label htmlFor={`${base}-transport`} className="block text-sm font-medium">
            {t('transport')}
          </label>
          <select
            id={`${base}-transport`}
            value={draft.transport}
            onChange={(e) => update({ transport: e.target.value as Transport })}
            className={INPUT}
          >
            {TRANSPORTS.map((tr) => (
              <option key={tr} value={tr}>
                {tr}
              </option>
            ))}
          </select>
        </div>
        {draft.transport === 'stdio' && (
          <>
            {box(
              'command',
              t('command'),
              <input
                {...bind('command')}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                className={`${INPUT} font-mono`}
              />,
            )}
            {box('args', t('args'), pairsArea('args'))}
            {box('env', t('env'), pairsArea('env'))}
            {box(
              'cwd',
              t('cwd'),
              <input
                {...bind('cwd')}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                className={`${INPUT} font-mono`}
              />,
            )}
            {timeoutBox}
            <CommandPreview command={draft.command} args={lines(draft.args).filter((l) => l !== '')} />
          </>
        )}
        {remote && (
          <>
            {box(
              'url',
              t('url'),
              <input {...bind('url')} type="url" autoComplete="off" className={`${INPUT} font-mono`} />,
            )}
            {box('headers', t('headers'), pairsArea('headers'))}
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.allowPrivateNetwork}
                onChange={(e) => update({ allowPrivateNetwork: e.target.checked })}
              />
              {t('privateNetwork')}
            </label>
            {timeoutBox}
          </>
        )}
        {draft.transport === 'builtin' &&
          box(
            'builtin',
            t('builtin'),
            <select {...bind('builtin')} className={INPUT}>
              {BUILTIN_SERVERS.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>,
          )}
        <McpAccessFields base={base} draft={draft} update={update} bind={bind} box={box} />
        <McpClientFields base={base} draft={draft} update={update} bind={bind} box={box} />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => update({ enabled: e.target.checked })}
          />
          {t('enabled')}
        </label>
        {errors.form && (
          <p role="alert" className="break-words text-sm text-red-700 dark:text-red-400">
            {errors.form}
          </p>
        )}
        {maskedChange && <p className="text-xs text-zinc-500">{t('maskedNote')}</p>}
        {result && <TestResultPanel result={result} />}
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <BusyButton
            type="button"
            onClick={() => void run('test')}
            busy={busy !== null}
            className={`${BUTTON} mr-auto`}
          >
            {busy === 'test' ? t('testing') : t('test')}
          </BusyButton>
          <button type="button" onClick={onClose} className={BUTTON}>
            {t('cancel')}
          </button>
          <BusyButton
            type="submit"
            busy={busy !== null}
            className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
          >
            {busy === 'save' ? t('saving') : t('save')}
          </BusyButton>
        </div>
      </form>
    </Modal>
  );
}
