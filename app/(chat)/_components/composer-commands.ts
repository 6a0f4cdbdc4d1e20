import type { ToolMode } from '@/lib/schemas/chat';
import type { PromptInfo, ResourceInfo } from './use-mcp-catalogs';

/** What choosing an option in the `/` or `@` menu does. */
export type MenuPick =
  | { kind: 'tools' }
  | { kind: 'mode'; mode: ToolMode }
  | { kind: 'new' }
  | { kind: 'help' }
  | { kind: 'prompt'; prompt: PromptInfo }
  | { kind: 'resource'; resource: ResourceInfo };

export type MenuOption = {
  key: string;
  label: string;
  detail?: string;
  note?: string;
  disabled?: boolean;
  pick: MenuPick;
};

/** The help texts of the built-in commands (keys of the `help` messages). */
export type CommandKey =
  | 'commandTools'
  | 'commandModeAuto'
  | 'commandModeRequired'
  | 'commandModeOff'
  | 'commandNew'
  | 'commandHelp';

/** The built-in commands, in menu order (also what /help lists); `detail` is a `help` message key. */
export const BUILT_IN_COMMANDS: ReadonlyArray<Omit<MenuOption, 'key' | 'detail'> & { detail: CommandKey }> = [
  { label: '/tools', detail: 'commandTools', pick: { kind: 'tools' } },
  { label: '/mode auto', detail: 'commandModeAuto', pick: { kind: 'mode', mode: 'auto' } },
  { label: '/mode required', detail: 'commandModeRequired', pick: { kind: 'mode', mode: 'required' } },
  { label: '/mode off', detail: 'commandModeOff', pick: { kind: 'mode', mode: 'off' } },
  { label: '/new', detail: 'commandNew', pick: { kind: 'new' } },
  { label: '/help', detail: 'commandHelp', pick: { kind: 'help' } },
];

export type MenuTrigger = { kind: 'slash' | 'mention'; query: string; start: number; end: number };

/** `/…` as the whole (single-line) text opens the command menu. */
export function findSlash(text: string): MenuTrigger | null {
  return text.startsWith('/') && !text.includes('\n')
    ? { kind: 'slash', query: text.slice(1), start: 0, end: text.length }
    : null;
}

/** `@…` at the start or after a space, ending at the caret, opens the resource picker. */
export function findMention(text: string, caret: number): MenuTrigger | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { kind: 'mention', query, start: before.length - query.length - 1, end: caret };
}

/** Options whose text contains the query, those starting with it first. */
function rank(options: MenuOption[], query: string, haystack: (o: MenuOption) => string): MenuOption[] {
  const q = query.trim().toLowerCase();
  if (!q) return options;
  const hits = options.filter((o) => haystack(o).toLowerCase().includes(q));
  const starts = (o: MenuOption) => o.label.toLowerCase().replace(/^[/@]/, '').startsWith(q);
  return [...hits.filter(starts), ...hits.filter((o) => !starts(o))];
}

/** `helpText`: a built-in command's help text in the UI's language. */
export function slashOptions(
  query: string,
  prompts: PromptInfo[] | null,
  helpText: (key: CommandKey) => string,
): MenuOption[] {
  const builtIns = BUILT_IN_COMMANDS.map((c) => ({ ...c, key: c.label, detail: helpText(c.detail) }));
  const fromServers = (prompts ?? []).map((p) => {
    const args = p.arguments ?? [];
    return {
      key: `prompt:${p.server}:${p.name}`,
      label: `/${p.server}:${p.name}`,
      detail: p.description,
      note: args.length ? args.map((a) => (a.required ? `${a.name}*` : a.name)).join(' ') : undefined,
      pick: { kind: 'prompt', prompt: p } as const,
    };
  });
  return rank([...builtIns, ...fromServers], query, (o) => o.label.slice(1));
}

/** `templateWord`: what marks a resource template ("template") in the UI's language. */
export function mentionOptions(
  query: string,
  resources: ResourceInfo[] | null,
  templateWord: string,
): MenuOption[] {
  const options = (resources ?? []).map((r) => ({
    key: r.template ? `template:${r.server}:${r.uriTemplate}` : `resource:${r.server}:${r.uri}`,
    label: r.name,
    detail: r.template && r.unsupported ? r.unsupported : (r.description ?? r.title),
    note: r.template ? `${r.server} · ${r.uriTemplate} (${templateWord})` : `${r.server} · ${r.uri}`,
    disabled: r.template && Boolean(r.unsupported),
    pick: { kind: 'resource', resource: r } as const,
  }));
  return rank(options, query, (o) => `${o.label} ${o.note ?? ''} ${o.detail ?? ''}`);
}

/** The next option that can be chosen, moving by `step` from `from` (wrapping); -1 when none can. */
export function nextEnabled(options: MenuOption[], from: number, step: 1 | -1): number {
  for (let i = 1; i <= options.length; i++) {
    const index = (((from + step * i) % options.length) + options.length) % options.length;
    if (!options[index]?.disabled) return index;
  }
  return -1;
}
