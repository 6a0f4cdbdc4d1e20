// The provider form's list fields as text, and back (pure: no React, so unit tests can import it).

/** A comma-separated list: trimmed, empty entries dropped. */
export const list = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** `model: who, who` per line into `{ model: [who…] }`; a line without a colon is an error (its number). */
export function parseModelAllow(text: string): { value: Record<string, string[]> } | { line: number } {
  const value: Record<string, string[]> = {};
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const at = line.lastIndexOf(':');
    const model = line.slice(0, at).trim();
    if (at <= 0 || !model) return { line: i + 1 };
    value[model] = list(line.slice(at + 1));
  }
  return { value };
}

/** `{ model: [who…] }` back to its text, one `model: who, who` line per model. */
export const modelAllowText = (m: Record<string, string[]>) =>
  Object.entries(m)
    .map(([model, who]) => `${model}: ${who.join(', ')}`)
    .join('\n');
