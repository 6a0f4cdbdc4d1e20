'use client';

import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { AdminApiError, adminFetch } from '@/app/admin/_components/admin-fetch';
import { BUILTIN_SERVERS, type McpServerConfig, McpServerConfigSchema } from '@/lib/schemas/mcp';
import { CommandPreview } from './command-preview';

type Transport = McpServerConfig['transport'];
type Draft = {
  name: string;
  transport: Transport;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  builtin: string;
  timeoutMs: string;
  enabled: boolean;
  allowPrivateNetwork: boolean;
};
const FIELDS = ['name', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'timeoutMs', 'builtin'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field | 'form', string>>;
type TestResult = {
  ok: boolean;
  latencyMs: number;
  tools: Array<{ name: string }>;
  resources: unknown[];
  prompts: unknown[];
  error?: string;
  stderr: string[];
};
type Props = { server: (McpServerConfig & { id: string }) | null; onSaved: () => void; onClose: () => void };

const SHORT: Record<Field, string> = {
  name: 'Name',
  command: 'Command',
  args: 'Arguments',
  env: 'Environment',
  cwd: 'Working directory',
  url: 'URL',
  headers: 'Headers',
  timeoutMs: 'Timeout',
  builtin: 'Built-in server',
};
const MASK = '••••••';
const INPUT =
  'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950';
const BUTTON =
  'rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';

function toDraft(c: McpServerConfig | null): Draft {
  const d: Draft = {
    name: c?.name ?? '',
    transport: c?.transport ?? 'stdio',
    command: '',
    args: '',
    env: '',
    cwd: '',
    url: '',
    headers: '',
    builtin: 'time',
    timeoutMs: String(c?.timeoutMs ?? 60_000),
    enabled: c?.enabled ?? true,
    allowPrivateNetwork: (c?.transport === 'http' || c?.transport === 'sse') && c.allowPrivateNetwork,
  };
  if (c?.transport === 'stdio') {
    Object.assign(d, { command: c.command, args: c.args.join('\n'), cwd: c.cwd ?? '' });
    d.env = Object.entries(c.env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n');
  } else if (c?.transport === 'http' || c?.transport === 'sse') {
    Object.assign(d, {
      url: c.url,
      headers: Object.entries(c.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    });
  } else if (c?.transport === 'builtin') d.builtin = c.builtin;
  return d;
}

const lines = (text: string) => text.split('\n').map((l) => l.replace(/\r$/, ''));

/** `KEY=VALUE` or `Name: value` lines into a record (blank lines skipped); a bad line is a field error. */
function parsePairs(text: string, field: 'env' | 'headers', errors: Errors): Record<string, string> {
  const sep = field === 'env' ? '=' : ':';
  const pairs = new Map<string, string>();
  lines(text).forEach((line, i) => {
    if (!line.trim()) return;
    const at = line.indexOf(sep);
    const key = line.slice(0, at).trim();
    if (at <= 0 || !key)
      errors[field] ??= `line ${i + 1}: expected ${field === 'env' ? 'KEY=VALUE' : 'Name: value'}`;
    else if (pairs.has(key)) errors[field] ??= `line ${i + 1}: ${key} is given twice`;
    else pairs.set(key, field === 'env' ? line.slice(at + 1) : line.slice(at + 1).trim());
  });
  return Object.fromEntries(pairs);
}

/** Puts an error from a field path (`command`, `env.KEY`, `args.0`) beside its field, or on the form. */
function addError(errors: Errors, path: ReadonlyArray<PropertyKey>, message: string) {
  const [head, ...rest] = path.map(String);
  const field = FIELDS.find((f) => f === head);
  const where = head === 'args' && rest.length ? `line ${Number(rest[0]) + 1}` : rest.join('.');
  errors[field ?? 'form'] ??= where ? `${where}: ${message}` : message;
}

function toConfig(d: Draft): { config: McpServerConfig | null; errors: Errors } {
  const errors: Errors = {};
  const timeout = Number(d.timeoutMs.trim());
  if (!/^\d+$/.test(d.timeoutMs.trim()) || timeout < 1000 || timeout > 3_600_000)
    errors.timeoutMs = 'must be a whole number from 1000 to 3600000';
  const common = { name: d.name.trim(), enabled: d.enabled, timeoutMs: timeout };
  const raw =
    d.transport === 'stdio'
      ? {
          ...common,
          transport: d.transport,
          command: d.command,
          args: lines(d.args).filter((l) => l !== ''),
          env: parsePairs(d.env, 'env', errors),
          cwd: d.cwd.trim() || null,
        }
      : d.transport === 'builtin'
        ? { ...common, transport: d.transport, builtin: d.builtin }
        : {
            ...common,
            transport: d.transport,
            url: d.url.trim(),
            headers: parsePairs(d.headers, 'headers', errors),
            allowPrivateNetwork: d.allowPrivateNetwork,
          };
  const parsed = McpServerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
      addError(errors, issue.path, inner ?? issue.message);
    }
  }
  return { config: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors };
}

function FieldBox({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {error && (
        <p
          id={`${id}-error`}
          role="alert"
          className="mt-1 break-words text-xs text-red-700 dark:text-red-400"
        >
          {error}
        </p>
      )}
    </div>
  );
}

function TestResultPanel({ result }: { result: TestResult }) {
  return (
    <div
      data-test-result
      data-ok={String(result.ok)}
      role={result.ok ? 'status' : 'alert'}
      className="space-y-1 rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-700"
    >
      {result.ok ? (
        <>
          <p className="font-medium text-green-700 dark:text-green-400">
            OK: connected and listed in {result.latencyMs} ms
          </p>
          <p>Tools ({result.tools.length}):</p>
          <ul className="flex flex-wrap gap-1">
            {result.tools.map((t) => (
              <li key={t.name}>
                <code className="rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">{t.name}</code>
              </li>
            ))}
          </ul>
          <p>
            Resources: {result.resources.length} · Prompts: {result.prompts.length}
          </p>
        </>
      ) : (
        <p className="break-words font-medium text-red-700 dark:text-red-400">
          Failed after {result.latencyMs} ms: <span data-test-error>{result.error}</span>
        </p>
      )}
      {result.stderr.length > 0 && (
        <>
          <p className="text-xs text-zinc-500">stderr</p>
          <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-1 text-xs dark:bg-zinc-950">
            {result.stderr.join('\n')}
          </pre>
        </>
      )}
    </div>
  );
}

/** Add or edit an MCP server in a modal <dialog>: fields per transport, command preview, test connection, save. */
export function McpServerForm({ server, onSaved, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const base = useId();
  const [initial] = useState(() => toDraft(server));
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [result, setResult] = useState<TestResult | null>(null);
  const unchanged = JSON.stringify(draft) === JSON.stringify(initial);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
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
  const bind = (field: Field) => ({
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
    if (!(err instanceof AdminApiError)) return setErrors({ form: 'Could not reach the server. Try again.' });
    const next: Errors = {};
    for (const [path, message] of Object.entries(err.fields ?? {})) addError(next, path.split('.'), message);
    if (!next.form && FIELDS.every((f) => !next[f])) next.form = err.message;
    focusError.current = true;
    setErrors(next);
  }

  async function run(kind: 'test' | 'save') {
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
        await adminFetch(at, { method: server ? 'PATCH' : 'POST', json: config });
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
  const maskedChange = server && !unchanged && (draft.env + draft.headers).includes(MASK);
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
    'Timeout (ms)',
    <input {...bind('timeoutMs')} inputMode="numeric" className={INPUT} />,
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${base}-title`}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-1rem)] w-[40rem] max-w-[calc(100vw-1rem)] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-4 text-zinc-900 shadow-xl backdrop:bg-black/40 sm:p-5 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id={`${base}-title`} className="text-base font-semibold">
        {server ? `Edit server ${server.name}` : 'Add server'}
      </h2>
      <form ref={formRef} onSubmit={submit} noValidate className="mt-3 space-y-3">
        {box(
          'name',
          'Name',
          <input {...bind('name')} autoComplete="off" autoCapitalize="off" className={INPUT} />,
        )}
        <div>
          <label htmlFor={`${base}-transport`} className="block text-sm font-medium">
            Transport
          </label>
          <select
            id={`${base}-transport`}
            value={draft.transport}
            onChange={(e) => update({ transport: e.target.value as Transport })}
            className={INPUT}
          >
            <option value="stdio">stdio</option>
            <option value="http">http</option>
            <option value="sse">sse</option>
            <option value="builtin">builtin</option>
          </select>
        </div>
        {draft.transport === 'stdio' && (
          <>
            {box(
              'command',
              'Command',
              <input
                {...bind('command')}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                className={`${INPUT} font-mono`}
              />,
            )}
            {box('args', 'Arguments (one per line)', pairsArea('args'))}
            {box('env', 'Environment (KEY=VALUE per line)', pairsArea('env'))}
            {box(
              'cwd',
              'Working directory',
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
              'URL',
              <input {...bind('url')} type="url" autoComplete="off" className={`${INPUT} font-mono`} />,
            )}
            {box('headers', 'Headers (Name: value per line)', pairsArea('headers'))}
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.allowPrivateNetwork}
                onChange={(e) => update({ allowPrivateNetwork: e.target.checked })}
              />
              Private network (allow loopback and LAN addresses; never reached by a redirect)
            </label>
            {timeoutBox}
          </>
        )}
        {draft.transport === 'builtin' &&
          box(
            'builtin',
            'Built-in server',
            <select {...bind('builtin')} className={INPUT}>
              {BUILTIN_SERVERS.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>,
          )}
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => update({ enabled: e.target.checked })}
          />
          Enabled
        </label>
        {errors.form && (
          <p role="alert" className="break-words text-sm text-red-700 dark:text-red-400">
            {errors.form}
          </p>
        )}
        {maskedChange && (
          <p className="text-xs text-zinc-500">
            Testing unsaved changes sends masked values (••••••) as typed, not the stored secrets.
          </p>
        )}
        {result && <TestResultPanel result={result} />}
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <button
            type="button"
            onClick={() => void run('test')}
            disabled={busy !== null}
            className={`${BUTTON} mr-auto`}
          >
            {busy === 'test' ? 'Testing…' : 'Test connection'}
          </button>
          <button type="button" onClick={onClose} className={BUTTON}>
            Cancel
          </button>
          <button
            type="submit"
            disabled={busy !== null}
            className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
          >
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
