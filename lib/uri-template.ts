/**
 * RFC 6570 level 1 URI templates (`notes://{folder}/{name}`): what an MCP resource template asks the
 * user to fill in, and the URI it expands to. Higher levels (operators such as `{+path}`, `{?q}`,
 * several variables in one expression, modifiers `{x*}` `{x:3}`) are refused with a reason. Isomorphic.
 */

export type ParsedTemplate = { ok: true; variables: string[] } | { ok: false; error: string };

/** A level-1 variable name: letters, digits, `_`, and percent-encoded bytes (`.` only between them). */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const OPERATORS = '+#./;?&=,!@|';
const MAX_TEMPLATE = 2048;

export function parseUriTemplate(template: string): ParsedTemplate {
  if (template.length > MAX_TEMPLATE) return { ok: false, error: 'The template is too long.' };
  const variables: string[] = [];
  let rest = template;
  for (;;) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open < 0) {
      if (close >= 0) return { ok: false, error: 'The template has a "}" without its "{".' };
      break;
    }
    if (close >= 0 && close < open) return { ok: false, error: 'The template has a "}" without its "{".' };
    const end = rest.indexOf('}', open);
    if (end < 0) return { ok: false, error: 'The template has a "{" without its "}".' };
    const expr = rest.slice(open + 1, end);
    if (expr && OPERATORS.includes(expr[0] as string))
      return {
        ok: false,
        error: `"{${expr}}" uses the RFC 6570 operator "${expr[0]}"; only simple {name} variables are supported.`,
      };
    if (expr.includes(',') || /[*:]/.test(expr))
      return {
        ok: false,
        error: `"{${expr}}" uses more than RFC 6570 level 1; only simple {name} variables are supported.`,
      };
    if (!VARNAME.test(expr)) return { ok: false, error: `"{${expr}}" is not a valid variable name.` };
    if (!variables.includes(expr)) variables.push(expr);
    rest = rest.slice(end + 1);
  }
  if (!variables.length) return { ok: false, error: 'The template has no variables.' };
  return { ok: true, variables };
}

/** Simple string expansion: everything but the unreserved characters is percent-encoded (UTF-8). */
function encode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The URI for these values; throws naming the first variable left empty, or why the template is refused. */
export function expandUriTemplate(template: string, values: Record<string, string>): string {
  const parsed = parseUriTemplate(template);
  if (!parsed.ok) throw new Error(parsed.error);
  const empty = parsed.variables.find((v) => !values[v]);
  if (empty) throw new Error(`"${empty}" needs a value.`);
  return template.replace(/\{([^}]*)\}/g, (_, name: string) => encode(values[name] ?? ''));
}
