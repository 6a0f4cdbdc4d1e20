/**
 * The form's field a refusal's reason belongs to: its key itself, or the field it is a part of (an item of
 * a list field, `models.3`, or deeper, `prices.gpt-4o.input`), the longest such field; none: undefined.
 */
function fieldOf(key: string, known: readonly string[]): string | undefined {
  if (known.includes(key)) return key;
  return known.filter((field) => key.startsWith(`${field}.`)).sort((a, b) => b.length - a.length)[0];
}

/**
 * A refused request's reasons split between a form's own fields (`known`) and the form's alert. A reason
 * told at its field (announced there, and describing the field, which takes the focus) is not said again
 * by the form's alert, or a screen reader would announce it twice; the alert keeps what belongs to no
 * field: the whole `message` when no reason has a field of the form, else the other reasons. A reason
 * about a part of a field (`models.3`) is told at that field with its path, which says the item
 * ("models.3: too long"); several reasons for one field are joined.
 */
export function splitRefusal(
  message: string,
  reasons: Record<string, string> | undefined,
  known: readonly string[],
): { fields: Record<string, string>; formError: string | null } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const [key, reason] of Object.entries(reasons ?? {})) {
    const field = fieldOf(key, known);
    const text = field === key ? reason : `${key}: ${reason}`;
    if (field === undefined) rest.push(text);
    else fields[field] = fields[field] ? `${fields[field]}; ${text}` : text;
  }
  if (Object.keys(fields).length === 0) return { fields: {}, formError: message };
  return { fields, formError: rest.length ? rest.join('; ') : null };
}
