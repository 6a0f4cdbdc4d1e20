'use client';

import { useCallback, useRef, useState } from 'react';
import type { ToolCatalog } from './tool-selection';

/** GET /api/prompts item: shown in the `/` menu as `/server:name`. */
export type PromptInfo = {
  server: string;
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
};
/** GET /api/resources item: a resource the `@` picker attaches as is. */
export type PlainResourceInfo = {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  template: false;
};
/** GET /api/resources item: a resource template; picking it asks for its variables (unless `unsupported` says why not). */
export type TemplateInfo = {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  template: true;
  variables: string[];
  unsupported?: string;
};
export type ResourceInfo = PlainResourceInfo | TemplateInfo;

const FRESH_MS = 30_000;

/** A JSON document fetched on demand, kept for a while, and fetched again when asked after that (or after a failure). */
function useLazyJson<T>(url: string) {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const loadedAt = useRef(0);
  const inFlight = useRef(false);
  const load = useCallback(
    async (force = false) => {
      if (inFlight.current || (!force && Date.now() - loadedAt.current < FRESH_MS)) return;
      inFlight.current = true;
      try {
        const res = await fetch(url, { cache: 'no-store' });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        setData((await res.json()) as T);
        setFailed(false);
        loadedAt.current = Date.now();
      } catch {
        setFailed(true);
      } finally {
        inFlight.current = false;
      }
    },
    [url],
  );
  return { data, failed, load };
}

/** The MCP catalogs the composer offers: tools (for the Tools menu), prompts (`/`) and resources (`@`). */
export function useMcpCatalogs() {
  const tools = useLazyJson<ToolCatalog>('/api/tools');
  const prompts = useLazyJson<{ items: PromptInfo[] }>('/api/prompts');
  const resources = useLazyJson<{ items: ResourceInfo[] }>('/api/resources');
  return {
    tools: tools.data,
    toolsFailed: tools.failed,
    loadTools: tools.load,
    prompts: prompts.data?.items ?? null,
    loadPrompts: prompts.load,
    resources: resources.data?.items ?? null,
    loadResources: resources.load,
  };
}
