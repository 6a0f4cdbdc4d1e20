import { createHash } from 'node:crypto';

/** What MCP allows a tool to call itself (SEP-986); anything else — spaces, homoglyphs, 300 chars — is refused. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** What OpenAI-compatible APIs accept as a function name. */
const EXPOSED_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export type ToolRef = { server: string; tool: string };

const shortHash = (text: string) =>
  createHash('sha256')
    .update(text)
    .digest('base64url')
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 6);

/**
 * Names the model sees: `server__tool`, made safe and at most 64 characters, unique across servers.
 * They map back to (server, tool) only through the returned table — never by parsing the name.
 */
export function exposeToolNames(refs: ToolRef[]): {
  byExposed: Map<string, ToolRef>;
  rejected: Array<ToolRef & { reason: string }>;
} {
  const byExposed = new Map<string, ToolRef>();
  const rejected: Array<ToolRef & { reason: string }> = [];
  for (const ref of refs) {
    if (!MCP_TOOL_NAME.test(ref.tool)) {
      rejected.push({ ...ref, reason: 'the tool name must be 1–128 characters of A–Z, a–z, 0–9, _, - or .' });
      continue;
    }
    let name = `${ref.server}__${ref.tool}`.replace(/[^a-zA-Z0-9_-]/g, '_');
    if (name.length > 64 || byExposed.has(name)) {
      name = `${name.slice(0, 57)}_${shortHash(`${ref.server}\0${ref.tool}`)}`;
    }
    if (!EXPOSED_NAME.test(name) || byExposed.has(name)) {
      rejected.push({ ...ref, reason: 'no unique exposed name could be formed' });
      continue;
    }
    byExposed.set(name, ref);
  }
  return { byExposed, rejected };
}
