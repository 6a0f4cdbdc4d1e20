'use client';

import { useTranslations } from 'next-intl';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { useTypedBeforeHydration } from '@/app/_components/use-typed-before-hydration';
import { AttachFilesButton } from './attach-files-button';
import { AttachmentChips, type ResourceAttachment } from './attachment-chips';
import type { MenuOption } from './composer-commands';
import { ComposerDialogs } from './composer-dialogs';
import { ComposerOverlay } from './composer-overlay';
import { ComposerToolbar } from './composer-toolbar';
import { renderPromptText } from './prompt-requests';
import { SendButton } from './send-button';
import { isTooLong, TooLongAlert } from './too-long-alert';
import { UploadChips } from './upload-chips';
import type { ToolSettingsControl } from './use-tool-settings';
import { type UploadedFile, useUploads } from './use-uploads';
import { useComposerMenus } from './use-composer-menus';
import { useDraftText } from './use-draft-text';
import { useFileDrop } from './use-file-drop';
import { type PromptInfo, type TemplateInfo, useMcpCatalogs } from './use-mcp-catalogs';
import { isInputMethodKey } from '@/app/_components/input-method';

type Props = {
  busy: boolean;
  disabled?: boolean;
  /** The trimmed text, the resources attached with `@` and the uploaded files (cleared once sent). */
  onSend: (text: string, attachments: ResourceAttachment[], files: UploadedFile[]) => void;
  onStop: () => void;
  models?: Array<{ id: string; label: string }>;
  model?: string | null;
  onModelChange?: (id: string) => void;
  /** This conversation's tool settings (missing toolMode = auto, servers null = all) and their changes. */
  toolControl: ToolSettingsControl;
  /** `/new`. */
  onNewChat: () => void;
  /** Where the unsent text is kept (the conversation's id, or "new"); none: not kept. */
  draftKey?: string;
};

/**
 * The message box: Enter sends, Shift+Enter adds a line; "Stop" replaces "Send" while a reply streams.
 * `/` opens commands and MCP prompts, `@` attaches MCP resources; while a menu is open Enter chooses from it.
 */
export function Composer(props: Props) {
  const {
    busy,
    disabled,
    onSend,
    onStop,
    models = [],
    model,
    onModelChange,
    toolControl,
    onNewChat,
    draftKey,
  } = props;
  const { text, setText, caret, setCaret } = useDraftText(draftKey);
  const [attachments, setAttachments] = useState<ResourceAttachment[]>([]);
  const [panel, setPanel] = useState<'tools' | 'help' | null>(null);
  const [argsFor, setArgsFor] = useState<PromptInfo | null>(null);
  const [templateFor, setTemplateFor] = useState<TemplateInfo | null>(null);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  useTypedBeforeHydration(ref, text, (typed, field) => {
    setText(typed);
    setCaret(field.selectionStart ?? typed.length);
  });
  const uploads = useUploads();
  const drop = useFileDrop(uploads.add);
  const t = useTranslations('attachments');
  const tc = useTranslations('composer');
  const tm = useTranslations('toolMenu');
  const failureText = useFailureText();
  const listboxId = useId();
  const { tools, toolsFailed, loadTools, prompts, loadPrompts, resources, loadResources } = useMcpCatalogs();
  const menus = useComposerMenus({ text, caret, prompts, resources });
  const { menu, wantsPrompts, wantsResources } = menus;

  // Back to the message box when an answer ends, unless the user is typing elsewhere (a rename, the search box).
  useEffect(() => {
    if (busy) return;
    const active = document.activeElement;
    if (!active || active === document.body || active.closest('[data-composer]')) ref.current?.focus();
  }, [busy]);
  useEffect(() => {
    void loadTools(toolsOpen || panel === 'tools');
  }, [loadTools, toolsOpen, panel]);
  useEffect(() => {
    if (wantsPrompts) void loadPrompts();
  }, [wantsPrompts, loadPrompts]);
  useEffect(() => {
    if (wantsResources) void loadResources();
  }, [wantsResources, loadResources]);

  /** Replaces the text and puts the caret at `at` (the end by default). */
  function replaceText(next: string, at = next.length) {
    setText(next);
    setCaret(at);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(at, at);
    });
  }

  async function insertPrompt(prompt: PromptInfo, args: Record<string, string>) {
    try {
      replaceText(await renderPromptText(prompt.server, prompt.name, args));
    } catch (err) {
      setNotice(
        tc('promptFailed', {
          server: prompt.server,
          name: prompt.name,
          error: failureText(err),
        }),
      );
    }
  }

  function attach({ server, uri, name }: ResourceAttachment) {
    setAttachments((list) =>
      list.some((a) => a.server === server && a.uri === uri) ? list : [...list, { server, uri, name }],
    );
  }

  function choose(option: MenuOption) {
    const { pick } = option;
    if (pick.kind === 'resource') {
      const start = menu?.trigger.start ?? text.length;
      const end = menu?.trigger.end ?? text.length;
      replaceText(text.slice(0, start) + text.slice(end), start);
      // A template is filled in first (TemplateDialog), then attached by its expanded URI.
      if (pick.resource.template) setTemplateFor(pick.resource);
      else attach(pick.resource);
      return;
    }
    if (pick.kind === 'new') {
      // Not back into this box: what is typed next belongs to the new chat (type-ahead.ts holds it).
      setText('');
      onNewChat();
      return;
    }
    replaceText('');
    setNotice(null);
    if (pick.kind === 'tools' || pick.kind === 'help') setPanel(pick.kind);
    else if (pick.kind === 'mode') {
      toolControl.change({ toolMode: pick.mode });
      setNotice(tc('toolMode', { mode: tm(`modes.${pick.mode}`) }));
    } else if (pick.prompt.arguments?.length) setArgsFor(pick.prompt);
    else void insertPrompt(pick.prompt, {});
  }

  // Files still uploading hold the message back; failed ones are left out (their chips say why).
  const canSend =
    (Boolean(text.trim()) || uploads.ready.length > 0) && !uploads.uploading && !isTooLong(text) && !disabled;

  function submit() {
    const value = text.trim();
    if (!canSend || busy) return;
    onSend(value, attachments, uploads.ready);
    setText('');
    setCaret(0);
    setAttachments([]);
    uploads.clear();
    setPanel(null);
    setNotice(null);
  }

  function editTools() {
    setPanel(null);
    setToolsOpen(true);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (isInputMethodKey(e) || menus.handleKey(e, choose)) return;
    if (e.key === 'Escape' && panel) {
      e.preventDefault();
      e.stopPropagation();
      setPanel(null);
    } else if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the "Attach files" button and paste do the same by keyboard
    <div
      data-composer
      data-dragging={drop.dragging || undefined}
      className={`relative mx-auto w-full max-w-3xl space-y-1 rounded-2xl ${drop.dragging ? 'ring-2 ring-blue-500' : ''}`}
      onDragOver={drop.onDragOver}
      onDragLeave={drop.onDragLeave}
      onDrop={drop.onDrop}
    >
      {drop.dragging && (
        <p className="pointer-events-none absolute inset-x-0 -top-7 text-center text-xs font-medium text-blue-700 dark:text-blue-300">
          {t('drop')}
        </p>
      )}
      <ComposerOverlay
        menu={menu}
        listboxId={listboxId}
        onPick={choose}
        onHighlight={menus.highlightAt}
        toolsOpen={toolsOpen}
        panel={panel}
        tools={tools}
        toolSettings={toolControl.settings}
        onEditTools={editTools}
        onClosePanel={() => setPanel(null)}
      />
      <ComposerToolbar
        busy={busy}
        models={models}
        model={model}
        onModelChange={onModelChange}
        catalog={tools}
        catalogFailed={toolsFailed}
        toolControl={toolControl}
        toolsOpen={toolsOpen}
        onToolsOpenChange={setToolsOpen}
        onReloadTools={() => void loadTools(true)}
        notice={notice}
      />
      <AttachmentChips
        items={attachments}
        onRemove={(item) => setAttachments((list) => list.filter((a) => a !== item))}
      />
      <UploadChips uploads={uploads.uploads} onRemove={uploads.remove} />
      <form
        className="flex w-full items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm dark:border-zinc-700 dark:bg-zinc-900"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <AttachFilesButton disabled={disabled} onFiles={uploads.add} />
        <label htmlFor="composer-input" className="sr-only">
          {tc('message')}
        </label>
        <textarea
          id="composer-input"
          ref={ref}
          value={text}
          rows={1}
          autoFocus
          placeholder={tc('placeholder')}
          aria-autocomplete="list"
          aria-controls={menu ? listboxId : undefined}
          aria-activedescendant={menu && menu.active >= 0 ? `${listboxId}-${menu.active}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
            setNotice(null);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onPaste={(e) => {
            const pasted = Array.from(e.clipboardData.files);
            if (!pasted.length) return;
            e.preventDefault();
            uploads.add(pasted);
          }}
          onFocus={() => setToolsOpen(false)}
          onKeyDown={onKeyDown}
          className="max-h-48 min-h-10 min-w-0 flex-1 resize-none bg-transparent px-2 py-2 text-sm outline-none [field-sizing:content]"
        />
        <SendButton busy={busy} canSend={canSend} onStop={onStop} />
      </form>
      <TooLongAlert text={text} className="px-2" />
      <ComposerDialogs
        argsFor={argsFor}
        onArgsClose={() => setArgsFor(null)}
        onInsert={(inserted) => {
          setArgsFor(null);
          replaceText(inserted);
        }}
        templateFor={templateFor}
        onTemplateClose={() => {
          setTemplateFor(null);
          requestAnimationFrame(() => ref.current?.focus());
        }}
        onTemplateAttach={(template, uri) => {
          setTemplateFor(null);
          attach({ server: template.server, uri, name: `${template.name}: ${uri}`.slice(0, 200) });
          requestAnimationFrame(() => ref.current?.focus());
        }}
      />
    </div>
  );
}
