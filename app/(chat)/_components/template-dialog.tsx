'use client';

import { useTranslations } from 'next-intl';
import { DialogActions } from './dialog-actions';
import { type FormEvent, useState } from 'react';
import { Modal } from '@/app/_components/modal';
import { expandUriTemplate } from '@/lib/uri-template';
import { PromptArgumentField } from './prompt-argument-field';
import { completeTemplateVariable } from './prompt-requests';
import type { TemplateInfo } from './use-mcp-catalogs';

type Props = {
  template: TemplateInfo;
  /** The expanded URI, to attach like any resource. */
  onAttach: (uri: string) => void;
  onClose: () => void;
};

/**
 * Fills in an MCP resource template (`notes://{folder}/{name}`): one field per variable, each with the
 * server's completions (given the values of the others), then hands back the expanded URI.
 */
export function TemplateDialog({ template, onAttach, onClose }: Props) {
  const t = useTranslations('templateDialog');
  const tf = useTranslations('promptArgument');
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const { server, uriTemplate, variables } = template;

  const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  let preview: string | null = null;
  try {
    preview = expandUriTemplate(uriTemplate, filled);
  } catch {
    preview = null;
  }

  function attach(e: FormEvent) {
    e.preventDefault();
    const missing = variables.filter((v) => !values[v]?.trim());
    if (missing.length) {
      setError(tf('missing', { names: missing.join(', ') }));
      return;
    }
    try {
      onAttach(expandUriTemplate(uriTemplate, values));
    } catch (err) {
      setError(err instanceof Error ? err.message : t('fillFailed'));
    }
  }

  return (
    <Modal
      title={`@${template.name}`}
      titleClassName="break-words text-base font-semibold"
      label={t('label', { name: template.name })}
      data={{ 'data-resource-template': uriTemplate }}
      onClose={onClose}
      closeOnOutsideClick={false}
      placement="top"
      className="w-[min(26rem,92vw)] p-5"
    >
      <form onSubmit={attach} className="space-y-3">
        <div>
          <p className="break-all font-mono text-xs text-zinc-500">
            {server} · {uriTemplate}
          </p>
          {template.description && (
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{template.description}</p>
          )}
        </div>
        {variables.map((name, i) => {
          const others = Object.fromEntries(Object.entries(filled).filter(([k]) => k !== name));
          return (
            <PromptArgumentField
              key={name}
              complete={(value, signal) =>
                completeTemplateVariable(server, uriTemplate, name, value, others, signal)
              }
              completionKey={JSON.stringify(others)}
              argument={{ name, required: true }}
              value={values[name] ?? ''}
              autoFocus={i === 0}
              onChange={(v) => {
                setValues((prev) => ({ ...prev, [name]: v }));
                setError(null);
              }}
            />
          );
        })}
        <p className="break-all text-xs text-zinc-500" data-template-preview>
          {preview ?? t('fillAll')}
        </p>
        <DialogActions error={error} submit={t('attach')} onCancel={onClose} />
      </form>
    </Modal>
  );
}
