/**
 * An MCP form elicitation's requested schema (a flat object of primitive fields, MCP 2025-11-25) as
 * form fields, and the check of what a user entered against it. The browser uses it to build and
 * check the form; the server checks the answer again with the same code before it goes to the MCP
 * server, so a crafted request cannot send what the form would refuse.
 */

export type FieldOption = { value: string; label: string };

export type ElicitField =
  | {
      key: string;
      label: string;
      description?: string;
      required: boolean;
      kind: 'boolean';
      default?: boolean;
    }
  | {
      key: string;
      label: string;
      description?: string;
      required: boolean;
      kind: 'number';
      integer: boolean;
      min?: number;
      max?: number;
      default?: number;
    }
  | {
      key: string;
      label: string;
      description?: string;
      required: boolean;
      kind: 'string';
      format?: 'email' | 'uri' | 'date' | 'date-time';
      minLength?: number;
      maxLength?: number;
      default?: string;
    }
  | {
      key: string;
      label: string;
      description?: string;
      required: boolean;
      kind: 'select';
      options: FieldOption[];
      default?: string;
    }
  | {
      key: string;
      label: string;
      description?: string;
      required: boolean;
      kind: 'multi';
      options: FieldOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    };

export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined);

/** Options of an enum: `oneOf`/`anyOf` of `{ const, title }`, or `enum` (with the legacy `enumNames`). */
function optionsOf(s: Json): FieldOption[] | undefined {
  const titled = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (titled) {
    const out = titled.flatMap((o) =>
      isObject(o) && typeof o.const === 'string' ? [{ value: o.const, label: str(o.title) ?? o.const }] : [],
    );
    return out.length ? out : undefined;
  }
  const values = strings(s.enum);
  if (!values) return undefined;
  const names = strings(s.enumNames);
  return values.map((value, i) => ({ value, label: names?.[i] ?? value }));
}

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

/** The fields of a requested schema, in its order; a property of a kind MCP does not allow is an error. */
export function formFields(schema: unknown): { fields: ElicitField[] } | { error: string } {
  if (!isObject(schema) || !isObject(schema.properties)) return { error: 'The form has no fields.' };
  const required = new Set(strings(schema.required) ?? []);
  const fields: ElicitField[] = [];
  for (const [key, raw] of Object.entries(schema.properties)) {
    if (!isObject(raw)) return { error: `Field "${key}" is not described.` };
    const base = {
      key,
      label: str(raw.title) || key,
      description: str(raw.description),
      required: required.has(key),
    };
    if (raw.type === 'boolean') {
      fields.push({
        ...base,
        kind: 'boolean',
        default: typeof raw.default === 'boolean' ? raw.default : undefined,
      });
    } else if (raw.type === 'number' || raw.type === 'integer') {
      fields.push({
        ...base,
        kind: 'number',
        integer: raw.type === 'integer',
        min: num(raw.minimum),
        max: num(raw.maximum),
        default: num(raw.default),
      });
    } else if (raw.type === 'string') {
      const options = optionsOf(raw);
      if (options) {
        fields.push({ ...base, kind: 'select', options, default: str(raw.default) });
      } else {
        const format = FORMATS.find((f) => f === raw.format);
        fields.push({
          ...base,
          kind: 'string',
          format,
          minLength: num(raw.minLength),
          maxLength: num(raw.maxLength),
          default: str(raw.default),
        });
      }
    } else if (raw.type === 'array' && isObject(raw.items)) {
      const options = optionsOf(raw.items);
      if (!options) return { error: `Field "${key}" is a list without choices.` };
      fields.push({
        ...base,
        kind: 'multi',
        options,
        minItems: num(raw.minItems),
        maxItems: num(raw.maxItems),
        default: strings(raw.default),
      });
    } else {
      return { error: `Field "${key}" has a type this form cannot show.` };
    }
  }
  return { fields };
}

/** The value a field starts with in the form: its default, else empty. */
export function initialValue(field: ElicitField): ElicitValue | undefined {
  return field.default;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkString(field: Extract<ElicitField, { kind: 'string' }>, v: string): string | undefined {
  if (field.minLength !== undefined && v.length < field.minLength)
    return `Use at least ${field.minLength} characters.`;
  if (field.maxLength !== undefined && v.length > field.maxLength)
    return `Use at most ${field.maxLength} characters.`;
  if (field.format === 'email' && !EMAIL.test(v)) return 'Enter an email address.';
  if (field.format === 'uri') {
    try {
      new URL(v);
    } catch {
      return 'Enter a full address, such as https://example.com.';
    }
  }
  if (field.format === 'date' && (!DATE.test(v) || Number.isNaN(Date.parse(v)))) return 'Enter a date.';
  if (field.format === 'date-time' && Number.isNaN(Date.parse(v))) return 'Enter a date and time.';
  return undefined;
}

function checkField(field: ElicitField, v: unknown): string | undefined {
  switch (field.kind) {
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'Choose yes or no.';
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'Enter a number.';
      if (field.integer && !Number.isInteger(v)) return 'Enter a whole number.';
      if (field.min !== undefined && v < field.min) return `Enter ${field.min} or more.`;
      if (field.max !== undefined && v > field.max) return `Enter ${field.max} or less.`;
      return undefined;
    case 'string':
      return typeof v === 'string' ? checkString(field, v) : 'Enter text.';
    case 'select':
      return typeof v === 'string' && field.options.some((o) => o.value === v)
        ? undefined
        : 'Pick one of the choices.';
    case 'multi': {
      if (!Array.isArray(v) || !v.every((x) => field.options.some((o) => o.value === x)))
        return 'Pick from the choices.';
      if (field.minItems !== undefined && v.length < field.minItems)
        return `Pick at least ${field.minItems}.`;
      if (field.maxItems !== undefined && v.length > field.maxItems) return `Pick at most ${field.maxItems}.`;
      return undefined;
    }
  }
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Checks what the user entered. Empty optional fields take their default when the schema has one
 * (the client advertises `applyDefaults`) and are otherwise left out; keys the schema does not name
 * are dropped. Errors are per field, in words a person can act on.
 */
export function checkAnswer(
  fields: ElicitField[],
  entered: Record<string, unknown>,
): { content: ElicitContent } | { errors: Record<string, string> } {
  const content: ElicitContent = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = Object.hasOwn(entered, field.key) ? entered[field.key] : undefined;
    const value = raw === undefined || (isEmpty(raw) && field.kind !== 'multi') ? field.default : raw;
    if (isEmpty(value)) {
      if (field.required) errors[field.key] = 'This field is required.';
      else if (field.kind === 'multi' && Array.isArray(raw)) content[field.key] = [];
      continue;
    }
    const problem = checkField(field, value);
    if (problem) errors[field.key] = problem;
    else content[field.key] = value as ElicitValue;
  }
  return Object.keys(errors).length ? { errors } : { content };
}
