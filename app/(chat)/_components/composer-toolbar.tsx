import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import { useTypedBeforeHydration } from '@/app/_components/use-typed-before-hydration';
import { ToolMenu } from './tool-menu';
import type { ToolCatalog } from './tool-selection';
import type { ToolSettingsControl } from './use-tool-settings';

type Props = {
  busy: boolean;
  models: Array<{ id: string; label: string }>;
  model?: string | null;
  onModelChange?: (id: string) => void;
  catalog: ToolCatalog | null;
  catalogFailed: boolean;
  toolControl: ToolSettingsControl;
  toolsOpen: boolean;
  onToolsOpenChange: (open: boolean) => void;
  onReloadTools: () => void;
  notice: string | null;
};

/** The row above the message box: the "Model" select (when there are several), the Tools menu, and a short notice. */
export function ComposerToolbar({
  busy,
  models,
  model,
  onModelChange,
  catalog,
  catalogFailed,
  toolControl,
  toolsOpen,
  onToolsOpenChange,
  onReloadTools,
  notice,
}: Props) {
  const t = useTranslations('composer');
  const modelSelect = useRef<HTMLSelectElement>(null);
  // A model chosen before hydration is the one used (no model yet: the select shows its first option, not a choice).
  useTypedBeforeHydration(modelSelect, model ?? '', (chosen) => {
    if (model) onModelChange?.(chosen);
  });
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-500">
      {models.length > 1 && (
        <label className="flex min-w-0 items-center gap-2">
          <span>{t('model')}</span>
          <select
            ref={modelSelect}
            // A browser's restored form state (Firefox, on reload) is not a choice to adopt.
            autoComplete="off"
            value={model ?? ''}
            onChange={(e) => onModelChange?.(e.target.value)}
            disabled={busy}
            className="max-w-[16rem] truncate rounded border border-zinc-300 bg-white px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <ToolMenu
        catalog={catalog}
        failed={catalogFailed}
        control={toolControl}
        open={toolsOpen}
        onOpenChange={onToolsOpenChange}
        onReload={onReloadTools}
      />
      {notice && (
        <span aria-live="polite" className="min-w-0 truncate">
          {notice}
        </span>
      )}
    </div>
  );
}
