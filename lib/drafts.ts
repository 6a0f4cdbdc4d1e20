/**
 * The composer's unsent text per conversation ("new" for a chat not started yet), kept in this tab's
 * sessionStorage so switching conversations doesn't lose it. Attached resources are not kept.
 */
const PREFIX = 'mcp-chat:draft:';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage disabled
  }
}

export function readDraft(key: string): string {
  return storage()?.getItem(PREFIX + key) ?? '';
}

export function writeDraft(key: string, text: string): void {
  const s = storage();
  try {
    if (text.trim()) s?.setItem(PREFIX + key, text);
    else s?.removeItem(PREFIX + key);
  } catch {
    /* quota exceeded: the draft is simply not kept */
  }
}
