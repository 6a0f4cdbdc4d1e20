/** Browser-side signal that the conversation list changed (a chat started, finished, was renamed or deleted). */
const EVENT = 'conversations-changed';

export function notifyConversationsChanged(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onConversationsChanged(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}
