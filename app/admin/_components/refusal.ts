/**
 * A refused request's reasons split between a form's own fields (`known`) and the form's alert. A reason
 * told at its field (announced there, and describing the field, which takes the focus) is not said again
 * by the form's alert, or a screen reader would announce it twice; the alert keeps what belongs to no
 * field: the whole `message` when no reason has a field of the form, else the other reasons.
 */
export function splitRefusal(
  message: string,
  reasons: Record<string, string> | undefined,
  known: readonly string[],
): { fields: Record<string, string>; formError: string | null } {
  const entries = Object.entries(reasons ?? {});
  const atFields = entries.filter(([key]) => known.includes(key));
  if (atFields.length === 0) return { fields: {}, formError: message };
  const rest = entries.filter(([key]) => !known.includes(key));
  return {
    fields: Object.fromEntries(atFields),
    formError: rest.length ? rest.map(([key, reason]) => `${key}: ${reason}`).join('; ') : null,
  };
}
