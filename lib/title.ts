/** A conversation title from the first message: first line, whitespace folded, at most 80 characters. */
export function titleFrom(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (!folded) return 'New chat';
  return folded.length > 80 ? `${folded.slice(0, 79)}…` : folded;
}
