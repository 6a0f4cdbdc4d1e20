/** Browser-side signal that the conversation list changed (a chat started, finished, was renamed or deleted). */
const EVENT = 'conversations-changed';

export function notifyConversationsChanged(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onConversationsChanged(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}

const TITLE_EVENT = 'conversation-title';

/** A conversation got a new title (generated after its first answer, or renamed): header, sidebar and tab follow. */
export function notifyTitleChanged(id: string, title: string): void {
  window.dispatchEvent(new CustomEvent(TITLE_EVENT, { detail: { id, title } }));
}

export function onTitleChanged(listener: (id: string, title: string) => void): () => void {
  const handle = (e: Event) => {
    const { id, title } = (e as CustomEvent<{ id: string; title: string }>).detail;
    listener(id, title);
  };
  window.addEventListener(TITLE_EVENT, handle);
  return () => window.removeEventListener(TITLE_EVENT, handle);
}
