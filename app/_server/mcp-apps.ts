import 'server-only';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import { getOwnConversation } from '@/db/queries/conversations';
import { recordToolCall } from '@/db/queries/tool-calls';
import { audit } from '@/app/_server/audit';
import { usableServer } from '@/app/_server/mcp-connections';
import { readUserResource } from '@/app/_server/mcp-context';
import type { SessionUser } from '@/app/_server/session';
import { toolPolicies } from '@/app/_server/tool-policy';
import { capResult, resultText } from '@/lib/chat/tools';
import { ConversationIdSchema } from '@/lib/schemas/chat';
import { AppError, notFound } from '@/lib/errors';
import { appCallDecision } from '@/lib/mcp-apps/call-gate';
import {
  APP_MIME_TYPE,
  type AppCsp,
  type AppPermission,
  cleanCsp,
  grantedPermissions,
  toolVisibility,
} from '@/lib/mcp-apps/sandbox-policy';
import { getPool } from '@/lib/mcp/pool';
import { processState } from '@/lib/process-state';
import { type PendingApproval, appApprovals } from '@/lib/shared/app-approvals';
import { requestLimiter } from '@/lib/shared/limits';

// MCP Apps, the host's server side: an app's `ui://` document read over the user's own connection, and
// the tool calls an app makes — through the same gates as the model's (allow lists and per-user scope,
// switched-off tools, approval policy, a rate limit), recorded in the call log and the audit log.

/** The largest app document we render. */
const MAX_APP_BYTES = 2 * 1024 * 1024;
/** A read document is kept this long per server, user (for per-user servers) and resource. */
const CACHE_MS = 5 * 60_000;
/** Tool calls an app may make per user and minute. */
const APP_CALLS_PER_MINUTE = 60;
/** An approval card left unanswered this long is forgotten. */
const APPROVAL_TTL_MS = 10 * 60_000;

type CachedDocument = { html: string; ui: Record<string, unknown>; at: number };

declare module '@/lib/process-state' {
  interface OwnedSlots {
    appDocuments: Map<string, CachedDocument>;
  }
}

export type AppResource = {
  server: string;
  uri: string;
  html: string;
  csp: AppCsp;
  /** Declared and allowed by the admin for this server. */
  permissions: AppPermission[];
  /** Declared but not allowed: the iframe does not get them. */
  deniedPermissions: string[];
  prefersBorder: boolean;
};

async function appsOf(server: string, user: SessionUser) {
  const { config } = await usableServer(user, server);
  if (config.apps?.enabled === false)
    throw new AppError('forbidden', `Apps of server "${server}" are switched off.`);
  return { config, allowed: config.apps?.permissions ?? [] };
}

const isAppHtml = (mime: string | undefined) =>
  !mime || mime.replace(/\s/g, '').toLowerCase().startsWith('text/html');

/** A tool's app document, read once per server and resource version (a per-user server: per user too). */
export async function readAppResource(user: SessionUser, server: string, uri: string): Promise<AppResource> {
  if (!uri.startsWith('ui://')) throw new AppError('bad_request', 'An app resource is a ui:// URI.');
  const { config, allowed } = await appsOf(server, user);
  const cache = processState('appDocuments', () => new Map<string, CachedDocument>());
  const key = [server, config.scope === 'user' ? user.id : '', uri, JSON.stringify(config)].join('\0');
  let doc = cache.get(key);
  if (!doc || Date.now() - doc.at > CACHE_MS) {
    const result = await readUserResource(user, server, uri);
    const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
    if (!content) throw new AppError('not_found', `${uri} is empty.`);
    if (!isAppHtml(content.mimeType))
      throw new AppError('bad_request', `${uri} is ${content.mimeType}, not ${APP_MIME_TYPE}.`);
    const html = 'text' in content ? content.text : Buffer.from(content.blob, 'base64').toString('utf8');
    if (Buffer.byteLength(html) > MAX_APP_BYTES)
      throw new AppError('payload_too_large', `${uri} is over ${MAX_APP_BYTES} bytes.`);
    const meta = content._meta?.ui;
    doc = {
      html,
      ui: meta && typeof meta === 'object' ? (meta as Record<string, unknown>) : {},
      at: Date.now(),
    };
    if (cache.size > 500) cache.clear();
    cache.set(key, doc);
  }
  const declared = doc.ui.permissions && typeof doc.ui.permissions === 'object' ? doc.ui.permissions : {};
  const permissions = grantedPermissions(declared, allowed);
  return {
    server,
    uri,
    html: doc.html,
    csp: cleanCsp(doc.ui.csp),
    permissions,
    deniedPermissions: Object.keys(declared).filter((p) => !permissions.includes(p as AppPermission)),
    prefersBorder: doc.ui.prefersBorder !== false,
  };
}

export const AppCallSchema = z
  .object({
    conversationId: ConversationIdSchema,
    server: z.string().max(64),
    tool: z.string().min(1).max(200),
    arguments: z.record(z.string(), z.unknown()).default({}),
    /** The answer to an approval card this endpoint asked for. */
    approval: z.object({ id: z.string().uuid(), approved: z.boolean() }).strict().optional(),
  })
  .strict();
export type AppCall = z.infer<typeof AppCallSchema>;

export type AppCallAnswer =
  | { status: 'done'; result: CallToolResult }
  | { status: 'approval-required'; approvalId: string }
  | { status: 'denied' };

async function takeAppCall(userId: string): Promise<void> {
  const taken = await processState('appCallRate', () =>
    requestLimiter('app-calls', APP_CALLS_PER_MINUTE, 60_000),
  ).take(userId);
  if (!taken.ok)
    throw new AppError(
      'rate_limited',
      `Too many tool calls from apps. Try again in ${taken.retryAfterS} s.`,
      undefined,
      {
        'Retry-After': String(taken.retryAfterS),
      },
    );
}

const approvals = () => processState('appApprovals', () => appApprovals(APPROVAL_TTL_MS));

/**
 * The approval this call answers: issued for exactly this user, conversation, tool and arguments; used
 * once, by whichever worker or instance the answer reaches. The user's answer that does not match the
 * call uses it up too; another user's answer leaves it to its owner. Both are audited (someone answered
 * an approval that was not theirs, or for another call).
 */
async function takeApproval(
  user: SessionUser,
  call: AppCall,
  args: string,
  id: string,
): Promise<PendingApproval> {
  const found = await approvals().take(id, user.id);
  const matches =
    found?.userId === user.id &&
    found.conversationId === call.conversationId &&
    found.server === call.server &&
    found.tool === call.tool &&
    found.args === args;
  if (found && matches) return found;
  if (found)
    await audit(
      user,
      'mcp.app.call',
      `${call.server}/${call.tool}`,
      'denied',
      found.userId === user.id
        ? 'an answer to an approval of another call'
        : "an answer to another user's approval",
    );
  throw notFound('This approval is not waiting (answered, expired, or for another call).');
}

/**
 * A tool call from an app in the user's conversation. Needs approval → `approval-required` with an id
 * the approval card answers with; denied → `denied`; run → the tool's (capped) result, an error result
 * when it failed. Refusals are 404/403 with the reason, and audited.
 */
export async function callToolFromApp(user: SessionUser, call: AppCall): Promise<AppCallAnswer> {
  const target = `${call.server}/${call.tool}`;
  const conversation = await getOwnConversation(getDb(), user.id, call.conversationId);
  if (!conversation) throw notFound('Conversation not found.');
  const { config } = await usableServer(user, call.server);
  await takeAppCall(user.id);
  const pool = getPool().forUser(user);
  const [entry] = await pool.tools([call.server]);
  const tool = entry && 'tools' in entry ? entry.tools.find((t) => t.name === call.tool) : undefined;
  const policy = tool ? (await toolPolicies(user)).of(call.server, tool) : undefined;
  const decision = appCallDecision(call.server, call.tool, {
    appsEnabled: config.apps?.enabled !== false,
    serverInConversation: !conversation.toolServers || conversation.toolServers.includes(call.server),
    toolExists: Boolean(tool),
    enabledByAdmin: policy?.enabled ?? false,
    enabledInConversation: !conversation.disabledTools.includes(target),
    visibleToApps: tool ? toolVisibility(tool).app : false,
    approval: policy?.approval ?? 'ask',
    changed: policy?.changed ?? false,
    allowedInConversation: conversation.allowedTools.includes(target),
  });
  if (decision.kind === 'refuse') {
    await audit(user, 'mcp.app.call', target, 'denied', decision.message);
    throw new AppError(decision.code, decision.message);
  }
  const args = JSON.stringify(call.arguments);
  const record = (extra: Partial<Parameters<typeof recordToolCall>[1]>) =>
    recordToolCall(getDb(), {
      conversationId: conversation.id,
      server: call.server,
      tool: call.tool,
      durationMs: 0,
      outcome: 'ok',
      errorKind: null,
      error: null,
      resultBytes: 0,
      ...extra,
    });
  if (decision.kind === 'ask') {
    if (!call.approval) {
      const approvalId = await approvals().issue({
        userId: user.id,
        conversationId: conversation.id,
        server: call.server,
        tool: call.tool,
        args,
      });
      return { status: 'approval-required', approvalId };
    }
    await takeApproval(user, call, args, call.approval.id);
    if (!call.approval.approved) {
      await record({ outcome: 'denied', error: 'The user denied this call from an app.' });
      await audit(user, 'mcp.app.call', target, 'denied', 'the user denied it');
      return { status: 'denied' };
    }
  }
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const { result, bytes } = capResult(await pool.callTool(call.server, call.tool, call.arguments));
    await record({
      durationMs: durationMs(),
      resultBytes: bytes,
      ...(result.isError && {
        outcome: 'error' as const,
        errorKind: 'tool',
        error: (resultText(result) || 'The tool reported an error.').slice(0, 1000),
      }),
    });
    await audit(user, 'mcp.app.call', target, result.isError ? 'failed' : 'ok');
    return { status: 'done', result };
  } catch (err) {
    const failure = pool.publicFailure(call.server, err);
    await record({
      durationMs: durationMs(),
      outcome: 'error',
      errorKind: failure.kind,
      error: `ref ${failure.ref}: ${failure.detail}`,
    });
    await audit(user, 'mcp.app.call', target, 'failed', `ref ${failure.ref}`);
    return {
      status: 'done',
      result: {
        isError: true,
        content: [{ type: 'text', text: `Could not run ${target}: ${failure.message}` }],
      },
    };
  }
}
