import type { ApprovalPolicy } from '@/lib/schemas/mcp';

/** What the host knows about a tool an app asks to call, all from the user's own view. */
export type AppCallFacts = {
  /** The server's apps are switched on by the admin. */
  appsEnabled: boolean;
  /** The server is one this conversation uses (its server list, or every server when it has none). */
  serverInConversation: boolean;
  /** The tool is in the server's list for this user. */
  toolExists: boolean;
  /** The admin has not switched the tool off. */
  enabledByAdmin: boolean;
  /** The user has not switched it off in this conversation. */
  enabledInConversation: boolean;
  /** `_meta.ui.visibility` lets apps call it. */
  visibleToApps: boolean;
  approval: ApprovalPolicy;
  /** Its definition changed since an admin reviewed it (always asks). */
  changed: boolean;
  /** "Always allow this tool in this conversation" was chosen before. */
  allowedInConversation: boolean;
};

export type AppCallDecision =
  | { kind: 'run' }
  | { kind: 'ask' }
  | { kind: 'refuse'; code: 'not_found' | 'forbidden'; message: string };

/**
 * The same gates as the model's calls: a tool the user cannot see does not exist (404); one that is
 * switched off, hidden from apps, or on a server whose apps are off is refused (403); one set to "ask"
 * (or changed since review) needs the user's approval unless they allowed it in this conversation.
 */
export function appCallDecision(server: string, tool: string, f: AppCallFacts): AppCallDecision {
  if (!f.toolExists || !f.serverInConversation)
    return {
      kind: 'refuse',
      code: 'not_found',
      message: `Tool "${tool}" of server "${server}" is not available.`,
    };
  if (!f.appsEnabled)
    return { kind: 'refuse', code: 'forbidden', message: `Apps of server "${server}" are switched off.` };
  if (!f.enabledByAdmin || !f.enabledInConversation)
    return { kind: 'refuse', code: 'forbidden', message: `Tool "${tool}" is switched off.` };
  if (!f.visibleToApps)
    return { kind: 'refuse', code: 'forbidden', message: `Tool "${tool}" cannot be called from an app.` };
  if (f.changed || (f.approval === 'ask' && !f.allowedInConversation)) return { kind: 'ask' };
  return { kind: 'run' };
}
