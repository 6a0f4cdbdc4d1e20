import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** Prompts and resources of a connected server (not cached; admin detail pages and the composer). */

export type ResourceInfo = { uri: string; name: string; description?: string; mimeType?: string };
export type PromptInfo = {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
};

/** Resources and templates, when the server has them. */
export async function listResources(client: Client, timeout: number): Promise<ResourceInfo[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const [resources, templates] = await Promise.all([
    client.listResources(undefined, { timeout }),
    client.listResourceTemplates(undefined, { timeout }).catch(() => ({ resourceTemplates: [] })),
  ]);
  return [
    ...resources.resources.map((r) => ({
      uri: r.uri,
      name: r.name,
      description: r.description,
      mimeType: r.mimeType,
    })),
    ...templates.resourceTemplates.map((t) => ({
      uri: t.uriTemplate,
      name: t.name,
      description: t.description,
      mimeType: t.mimeType,
    })),
  ];
}

export async function listPrompts(client: Client, timeout: number): Promise<PromptInfo[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const { prompts } = await client.listPrompts(undefined, { timeout });
  return prompts.map((p) => ({ name: p.name, description: p.description, arguments: p.arguments }));
}

/** completion/complete for a prompt argument; [] when the server does not offer completions. */
export async function completePromptArgument(
  client: Client,
  timeout: number,
  prompt: string,
  argument: string,
  value: string,
): Promise<string[]> {
  if (!client.getServerCapabilities()?.completions) return [];
  const result = await client.complete(
    { ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } },
    { timeout },
  );
  return result.completion.values.slice(0, 100);
}
