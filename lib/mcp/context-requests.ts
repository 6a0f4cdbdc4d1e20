import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * Prompts, resources and completions of a connected server (not cached; admin detail pages and the
 * composer). Each is a request McpConnection.request runs — `conn.request(listPrompts)`,
 * `conn.request(getPrompt(name, args))` — so a lost session is retried once and the request timeout
 * applies.
 */

/** What McpConnection.request runs: one request on the connected client, with the request timeout. */
export type ContextRequest<T> = (client: Client, timeout: number) => Promise<T>;

export type ResourceInfo = { uri: string; name: string; description?: string; mimeType?: string };
export type PromptInfo = {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
};

export type ResourceTemplateInfo = {
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
};

/** The pages a listing follows at most (a server that keeps handing out cursors is cut off). */
const MAX_PAGES = 10;

/** Plain resources, when the server has them (templates are listed apart: listResourceTemplates). */
export async function listResources(client: Client, timeout: number): Promise<ResourceInfo[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const { resources } = await client.listResources(undefined, { timeout });
  return resources.map((r) => ({
    uri: r.uri,
    name: r.name,
    description: r.description,
    mimeType: r.mimeType,
  }));
}

/** Resource templates (RFC 6570 URI templates the user fills in), when the server has them. */
export async function listResourceTemplates(
  client: Client,
  timeout: number,
): Promise<ResourceTemplateInfo[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const { resourceTemplates } = await client
    .listResourceTemplates(undefined, { timeout })
    .catch(() => ({ resourceTemplates: [] }));
  return resourceTemplates.map((t) => ({
    uriTemplate: t.uriTemplate,
    name: t.name,
    description: t.description,
    mimeType: t.mimeType,
  }));
}

export async function listPrompts(client: Client, timeout: number): Promise<PromptInfo[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const all: PromptInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { prompts, nextCursor } = await client.listPrompts(cursor ? { cursor } : undefined, { timeout });
    all.push(...prompts.map((p) => ({ name: p.name, description: p.description, arguments: p.arguments })));
    if (!nextCursor) break;
    cursor = nextCursor;
  }
  return all;
}

/** completion/complete for a prompt argument; [] when the server does not offer completions. */
export function completePromptArgument(
  prompt: string,
  argument: string,
  value: string,
): ContextRequest<string[]> {
  return async (client, timeout) => {
    if (!client.getServerCapabilities()?.completions) return [];
    const result = await client.complete(
      { ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } },
      { timeout },
    );
    return result.completion.values.slice(0, 100);
  };
}

/** prompts/get. */
export function getPrompt(name: string, args: Record<string, string>) {
  return (client: Client, timeout: number) => client.getPrompt({ name, arguments: args }, { timeout });
}

/** resources/read. */
export function readResource(uri: string) {
  return (client: Client, timeout: number) => client.readResource({ uri }, { timeout });
}

/**
 * completion/complete for a variable of a resource template (ref/resource), with the values of the
 * other variables as context; [] when the server does not offer completions.
 */
export function completeTemplateArgument(
  uriTemplate: string,
  argument: string,
  value: string,
  context: Record<string, string>,
): ContextRequest<string[]> {
  return async (client, timeout) => {
    if (!client.getServerCapabilities()?.completions) return [];
    const result = await client.complete(
      {
        ref: { type: 'ref/resource', uri: uriTemplate },
        argument: { name: argument, value },
        ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
      },
      { timeout },
    );
    return result.completion.values.slice(0, 100);
  };
}
