import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

type Property = { default?: unknown };

/** Accepts a form elicitation with the defaults its schema declares (SEP-1034); nothing else is invented. */
export async function acceptWithDefaults(params: ElicitRequest['params']): Promise<ElicitResult> {
  const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [key, prop] of Object.entries((schema?.properties ?? {}) as Record<string, Property>)) {
    const value = prop.default;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      content[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
      content[key] = value as string[];
  }
  return { action: 'accept', content };
}
