'use client';

import { useTranslations } from 'next-intl';
import { type KeyboardEvent, useState } from 'react';
import {
  findMention,
  findSlash,
  type MenuOption,
  type MenuTrigger,
  mentionOptions,
  nextEnabled,
  slashOptions,
} from './composer-commands';
import type { PromptInfo, ResourceInfo } from './use-mcp-catalogs';

type Input = { text: string; caret: number; prompts: PromptInfo[] | null; resources: ResourceInfo[] | null };

export type OpenMenu = { trigger: MenuTrigger; options: MenuOption[]; active: number };

/**
 * Which menu the message box shows: the `/` commands when the text is a command being typed, else the `@`
 * resource picker at the caret. Escape hides it until the text changes; the highlighted option resets per query.
 */
export function useComposerMenus({ text, caret, prompts, resources }: Input) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [highlight, setHighlight] = useState({ key: '', index: 0 });

  const slash = findSlash(text);
  const th = useTranslations('help');
  const commands = slash ? slashOptions(slash.query, prompts, (k) => th(k)) : [];
  const mention = slash && commands.length ? null : findMention(text, caret);
  const trigger = slash && commands.length ? slash : mention;
  const options =
    trigger === slash ? commands : mention ? mentionOptions(mention.query, resources, th('template')) : [];
  const key = trigger ? `${trigger.kind}:${trigger.start}:${trigger.query}` : '';
  const active =
    highlight.key === key && highlight.index < options.length ? highlight.index : nextEnabled(options, -1, 1);
  const menu: OpenMenu | null =
    trigger && options.length && dismissed !== key ? { trigger, options, active } : null;

  return {
    menu,
    /** The text is a command being typed: fetch the prompts. */
    wantsPrompts: slash !== null,
    /** An `@` mention is being typed: fetch the resources. */
    wantsResources: mention !== null,
    highlightAt: (index: number) => setHighlight({ key, index }),
    /**
     * The open menu's keys: ↑/↓ move, Enter/Tab choose, Escape hides it (and must not reach the chat's own
     * Escape = Stop). Returns whether the key was used.
     */
    handleKey(e: KeyboardEvent, choose: (option: MenuOption) => void): boolean {
      if (!menu || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp')
        setHighlight({ key, index: nextEnabled(options, active, e.key === 'ArrowDown' ? 1 : -1) });
      else if (e.key === 'Enter' || e.key === 'Tab') {
        const option = options[active];
        if (option && !option.disabled) choose(option);
      } else if (e.key === 'Escape') {
        e.stopPropagation();
        setDismissed(key);
      } else return false;
      e.preventDefault();
      return true;
    },
  };
}
