import { useTranslations } from 'next-intl';
import { lazy, Suspense } from 'react';
import type { ToolSettings } from '@/lib/schemas/chat';
import type { MenuOption } from './composer-commands';
import { MenuListbox } from './menu-listbox';
import type { ToolCatalog } from './tool-selection';
import type { OpenMenu } from './use-composer-menus';

// Panels load when first opened, not with the page.
const HelpPanel = lazy(() => import('./help-panel').then((m) => ({ default: m.HelpPanel })));
const ToolsPanel = lazy(() => import('./tools-panel').then((m) => ({ default: m.ToolsPanel })));

type Props = {
  menu: OpenMenu | null;
  listboxId: string;
  onPick: (option: MenuOption) => void;
  onHighlight: (index: number) => void;
  /** The Tools menu is open: no panel over it. */
  toolsOpen: boolean;
  panel: 'tools' | 'help' | null;
  tools: ToolCatalog | null;
  toolSettings: ToolSettings;
  onEditTools: () => void;
  onClosePanel: () => void;
};

/** What shows above the message box: the open `/` or `@` menu, else the Tools or Help panel. */
export function ComposerOverlay({
  menu,
  listboxId,
  onPick,
  onHighlight,
  toolsOpen,
  panel,
  tools,
  toolSettings,
  onEditTools,
  onClosePanel,
}: Props) {
  const tc = useTranslations('composer');
  return menu ? (
    <MenuListbox
      id={listboxId}
      label={menu.trigger.kind === 'slash' ? tc('commands') : tc('resources')}
      options={menu.options}
      active={menu.active}
      onPick={onPick}
      onHighlight={onHighlight}
    />
  ) : toolsOpen ? null : panel === 'tools' ? (
    <Suspense fallback={null}>
      <ToolsPanel catalog={tools} settings={toolSettings} onEdit={onEditTools} onClose={onClosePanel} />
    </Suspense>
  ) : panel === 'help' ? (
    <Suspense fallback={null}>
      <HelpPanel onClose={onClosePanel} />
    </Suspense>
  ) : null;
}
