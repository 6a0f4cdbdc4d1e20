import type { ToolSettings, ToolToggle } from '@/lib/schemas/chat';

/**
 * Switching servers and tools of a conversation on and off, the same in the browser (what the Tools menu
 * shows at once) and on the server (what it stores: applied to the stored settings inside one
 * transaction, so a change made meanwhile in another tab is kept). `all` is every server the user may
 * enable: a list of servers that names them all collapses back to null ("every server", new ones too).
 */

/** What the switches change: the servers a conversation may use (null = all) and its switched-off tools. */
export type ToolSelection = { servers: string[] | null; disabledTools: string[] };

/** A change of the tool settings as PATCH /api/conversations/[id] carries it: only what changed. */
export type ToolChange = Pick<ToolSettings, 'toolMode' | 'maxSteps' | 'maxToolCalls'> & {
  toggles?: ToolToggle[];
};

export const toolKey = (server: string, tool: string) => `${server}/${tool}`;

/** Whether a conversation's settings let `server` run (no list: every server). */
export const isServerOn = (s: { servers?: string[] | null }, server: string) =>
  !s.servers || s.servers.includes(server);

/** Switches a server on or off; the list collapses back to null when it names every server. */
export function withServer(
  s: ToolSelection,
  all: readonly string[],
  server: string,
  on: boolean,
): ToolSelection {
  const every = all.includes(server) ? all : [...all, server];
  const current = s.servers ?? every;
  const next = on ? [...new Set([...current, server])] : current.filter((name) => name !== server);
  return { ...s, servers: every.every((name) => next.includes(name)) ? null : next };
}

/** Switches one tool on or off; switching a tool on also switches its server on. */
export function withTool(
  s: ToolSelection,
  all: readonly string[],
  server: string,
  tool: string,
  on: boolean,
): ToolSelection {
  const key = toolKey(server, tool);
  const others = s.disabledTools.filter((entry) => entry !== key);
  const next = { ...s, disabledTools: on ? others : [...others, key] };
  return on && !isServerOn(s, server) ? withServer(next, all, server, true) : next;
}

/** The switches applied in order to `s`. */
export function applyToggles(
  s: ToolSelection,
  toggles: readonly ToolToggle[],
  all: readonly string[],
): ToolSelection {
  return toggles.reduce(
    (acc, t) =>
      t.tool === undefined
        ? withServer(acc, all, t.server, t.on)
        : withTool(acc, all, t.server, t.tool, t.on),
    s,
  );
}

/** A conversation's tool settings with a change applied (what a tab shows before the server answers). */
export function applyToolChange(
  s: ToolSettings,
  change: ToolChange | null,
  all: readonly string[],
): ToolSettings {
  if (!change) return s;
  const { toggles, ...fields } = change;
  const next = { ...s, ...fields };
  if (!toggles?.length) return next;
  return {
    ...next,
    ...applyToggles({ servers: s.servers ?? null, disabledTools: s.disabledTools ?? [] }, toggles, all),
  };
}

/**
 * Two changes as one, the later winning: a field set again takes the later value; a switch flipped again
 * keeps only its last position (switches of different targets keep their order, so the result is the
 * same as applying both changes one after the other).
 */
export function mergeToolChanges(earlier: ToolChange | null, later: ToolChange): ToolChange {
  if (!earlier) return later;
  const key = (t: ToolToggle) => (t.tool === undefined ? t.server : toolKey(t.server, t.tool));
  const laterKeys = new Set((later.toggles ?? []).map(key));
  const toggles = [
    ...(earlier.toggles ?? []).filter((t) => !laterKeys.has(key(t))),
    ...(later.toggles ?? []),
  ];
  return { ...earlier, ...later, ...(toggles.length ? { toggles } : {}) };
}
