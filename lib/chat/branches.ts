/**
 * Conversation branches: messages form a tree (each follows its parent; siblings are versions made by
 * Edit and Regenerate) and the conversation shows one path, from a root down to its selected leaf.
 * Pure helpers for what is not done in SQL: bringing a tree in from a file, and walking one.
 */

export type TreeItem = { id?: string; parentId?: string | null };

/**
 * The messages of a file in the order written, each given a new id (`newId`) and the new id of its
 * parent. A message follows its `parentId` when that names an earlier message of the file, `null`
 * makes it a root; without a usable parentId it follows the message before it (an export without
 * branches is one path). The leaf is the message named `selectedId`, else the last one.
 */
export function rebuildTree<T extends TreeItem>(
  items: T[],
  selectedId: string | undefined,
  newId: () => string,
): { messages: Array<{ item: T; id: string; parentId: string | null }>; leafId: string | undefined } {
  const ids = new Map<string, string>();
  const messages: Array<{ item: T; id: string; parentId: string | null }> = [];
  for (const item of items) {
    const id = newId();
    const previous = messages.at(-1)?.id ?? null;
    const parentId =
      item.parentId === null
        ? null
        : item.parentId !== undefined && ids.has(item.parentId)
          ? (ids.get(item.parentId) as string)
          : previous;
    // A repeated id names the first message that had it.
    if (item.id && !ids.has(item.id)) ids.set(item.id, id);
    messages.push({ item, id, parentId });
  }
  const leafId = (selectedId && ids.get(selectedId)) || messages.at(-1)?.id;
  return { messages, leafId };
}

/** The path from the root to `leafId` (first message first); empty when the leaf is unknown. */
export function pathTo<T extends { id: string; parentId: string | null }>(
  messages: T[],
  leafId: string,
): T[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const path: T[] = [];
  const seen = new Set<string>();
  for (let m = byId.get(leafId); m && !seen.has(m.id); m = m.parentId ? byId.get(m.parentId) : undefined) {
    seen.add(m.id);
    path.push(m);
  }
  return path.reverse();
}
