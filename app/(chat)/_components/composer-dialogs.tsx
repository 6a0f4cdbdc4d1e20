import { lazy, Suspense } from 'react';
import type { PromptInfo, TemplateInfo } from './use-mcp-catalogs';

// Dialogs load when first opened, not with the page.
const PromptArgsDialog = lazy(() =>
  import('./prompt-args-dialog').then((m) => ({ default: m.PromptArgsDialog })),
);
const TemplateDialog = lazy(() => import('./template-dialog').then((m) => ({ default: m.TemplateDialog })));

type Props = {
  /** The MCP prompt whose arguments are asked for, if any. */
  argsFor: PromptInfo | null;
  onArgsClose: () => void;
  onInsert: (text: string) => void;
  /** The resource template being filled in, if any. */
  templateFor: TemplateInfo | null;
  onTemplateClose: () => void;
  /** The template filled in: its expanded URI. */
  onTemplateAttach: (template: TemplateInfo, uri: string) => void;
};

/** The composer's dialogs: a prompt's arguments, a resource template's variables. */
export function ComposerDialogs({
  argsFor,
  onArgsClose,
  onInsert,
  templateFor,
  onTemplateClose,
  onTemplateAttach,
}: Props) {
  return (
    <>
      {argsFor && (
        <Suspense fallback={null}>
          <PromptArgsDialog prompt={argsFor} onClose={onArgsClose} onInsert={onInsert} />
        </Suspense>
      )}
      {templateFor && (
        <Suspense fallback={null}>
          <TemplateDialog
            template={templateFor}
            onClose={onTemplateClose}
            onAttach={(uri) => onTemplateAttach(templateFor, uri)}
          />
        </Suspense>
      )}
    </>
  );
}
