import 'server-only';
import { getDb } from '@/db/client';
import type { getOwnConversation } from '@/db/queries/conversations';
import { recordToolCall } from '@/db/queries/tool-calls';
import { ownFilePart } from '@/app/_server/message-attachments';
import { readResourceForMessage } from '@/app/_server/mcp-context';
import { connectNotices } from '@/app/_server/mcp-connections';
import type { SamplingRun } from '@/app/_server/sampling';
import type { SessionUser } from '@/app/_server/session';
import { toolPolicies } from '@/app/_server/tool-policy';
import { turnRequestHooks } from '@/app/_server/turn-requests';
import type { Toolkit, TurnInput } from '@/lib/chat/run-turn';
import { buildToolSet, type ToolEntry } from '@/lib/chat/tools';
import { AppError } from '@/lib/errors';
import { toolAppUri, toolVisibility } from '@/lib/mcp-apps/sandbox-policy';
import { getPool } from '@/lib/mcp/pool';
import type { ChatPart } from '@/lib/schemas/chat';
import type { ChatPost } from '@/lib/schemas/chat-post';
import { loggable } from '@/lib/loggable';

// A chat turn's MCP side: the tools it may use (with their approval policy, and how their calls
// answer a server's elicitation and sampling requests), and the resources a user message attaches.

export type Conversation = NonNullable<Awaited<ReturnType<typeof getOwnConversation>>>;

/** What a call of a tool an admin turned off while the answer ran gets (the model reads it). */
const TURNED_OFF = 'An admin turned this tool off while the answer was running; it was not run.';

/** The MCP tools this conversation may use (its servers, minus tools switched off), with their approval policy. */
export async function prepareToolkit(
  user: SessionUser,
  conversation: Pick<Conversation, 'id' | 'allowedTools' | 'toolServers' | 'disabledTools'>,
  runSampling: SamplingRun,
) {
  // The user's own view: servers they may not use are not in it, so the model never sees their tools.
  const pool = getPool().forUser(user);
  const catalog = await pool.tools(conversation.toolServers ?? undefined);
  const disabled = new Set(conversation.disabledTools);
  const allowed = new Set(conversation.allowedTools);
  const policies = await toolPolicies(user);
  const notices = await connectNotices(user, catalog);
  return (...[emitProgress, emit]: Parameters<NonNullable<TurnInput['prepareTools']>>): Toolkit => {
    const { tools, entries } = buildToolSet({
      catalog,
      policy: (server, tool) => {
        const policy = policies.of(server, tool);
        // A tool only for its app (`_meta.ui.visibility: ["app"]`) is never offered to the model.
        const hidden = disabled.has(`${server}/${tool.name}`) || !toolVisibility(tool).model;
        return hidden ? { ...policy, enabled: false } : policy;
      },
      appUri: (server, tool) =>
        getPool().config(server)?.apps?.enabled === false ? undefined : toolAppUri(tool),
      call: async (server, tool, args, opts) => {
        // The admin's settings as they are now: one turned off during a long answer is not run again.
        if ((await toolPolicies(user)).setting(server, tool)?.enabled === false)
          return { content: [{ type: 'text', text: TURNED_OFF }], isError: true };
        return pool.callTool(server, tool, args, opts);
      },
      record: (call) =>
        void recordToolCall(getDb(), { conversationId: conversation.id, ...call }).catch((err) =>
          console.error('[chat] could not log a tool call', loggable(err)),
        ),
      onProgress: emitProgress,
      hooks: (server, toolCallId) =>
        turnRequestHooks({
          userId: user.id,
          conversationId: conversation.id,
          server,
          toolCallId,
          emit,
          samplingPolicy: getPool().config(server)?.sampling ?? 'ask',
          runSampling,
        }),
    });
    // Decided per call, with the policies as they are now: a tool an admin makes ask first during a long
    // answer asks from its next call on. One whose definition changed since review always asks, whatever
    // was allowed before.
    const isAllowed = async (e: ToolEntry) => {
      const now = (await toolPolicies(user)).of(e.server, e.tool);
      return now.approval === 'auto' || (allowed.has(`${e.server}/${e.tool.name}`) && !now.changed);
    };
    return { tools, entries, isAllowed, notices };
  };
}

/** The parts kept for a user message: its text, and attached MCP resources read now, on the server. */
export async function storedUserParts(
  user: SessionUser,
  parts: Extract<ChatPost, { message: unknown }>['message']['parts'],
): Promise<ChatPart[]> {
  return Promise.all(
    parts.map(async (p): Promise<ChatPart> => {
      if (p.type === 'text') return { type: 'text', text: p.text };
      if (p.type === 'data-app-message' || p.type === 'data-app-context') return p;
      if (p.type === 'file') return ownFilePart(user.id, p.url);
      try {
        // When the read started: a change the server reports from then on is read again (resource-refresh).
        const readAt = new Date().toISOString();
        const read = await readResourceForMessage(user, p.data.server, p.data.uri);
        return {
          type: 'data-resource',
          data: { ...read, name: p.data.name ?? p.data.uri.split('/').at(-1) ?? p.data.uri, readAt },
        };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new AppError('bad_request', `Could not read ${p.data.uri}: ${message}`, {
          'message.parts': 'resource unavailable',
        });
      }
    }),
  );
}
