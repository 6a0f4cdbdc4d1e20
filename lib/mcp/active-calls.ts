import 'server-only';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * What the caller of a tool offers for requests the server sends while that call runs: a person to
 * answer an elicitation, a model (and a person to approve) for sampling. Each gets a signal that ends
 * when the server withdraws the request, the call ends, or the connection closes.
 */
export type CallHooks = {
  elicit?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** A URL-mode elicitation the user accepted finished on the server's side. */
  elicitationComplete?: (elicitationId: string) => void;
  sample?: (
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ) => Promise<CreateMessageResult | CreateMessageResultWithTools>;
};

type ActiveCall = { owner: string | undefined; hooks: CallHooks; ended: AbortController; waiting: number };

/**
 * How many of a server's requests (elicitations, sampling) may wait on one call at once; more are
 * refused. Each is a form or a card in the chat, held with what the server sent until answered: a server
 * asking a hundred questions at once would otherwise flood the user's chat and the host's memory.
 */
export const MAX_WAITING_PER_CALL = 3;

/**
 * The tool calls running on one connection, and to which of them a server's request belongs.
 *
 * MCP gives a server-to-client request no reference to the call it serves (stdio has no per-request
 * channel, and the SDK does not surface Streamable HTTP's related request), so it goes to the newest
 * running call that can answer it. That is always right for a per-user connection (every call is the
 * user's own). On a shared connection, while calls of more than one user run, the request is refused:
 * asking the wrong person — showing one user a form meant for another — is worse than failing.
 */
export class ActiveCalls {
  private readonly calls: ActiveCall[] = [];
  /** URL elicitations accepted and not yet reported complete, by elicitation id. */
  private readonly pendingUrls = new Map<string, ActiveCall>();

  /** Registers a running call; the returned function ends it (and every request waiting on it). */
  enter(owner: string | undefined, hooks: CallHooks | undefined): () => void {
    const call: ActiveCall = { owner, hooks: hooks ?? {}, ended: new AbortController(), waiting: 0 };
    this.calls.push(call);
    return () => {
      const i = this.calls.indexOf(call);
      if (i >= 0) this.calls.splice(i, 1);
      for (const [id, c] of this.pendingUrls) if (c === call) this.pendingUrls.delete(id);
      call.ended.abort(new Error('The tool call ended.'));
    };
  }

  get size(): number {
    return this.calls.length;
  }

  private target(kind: 'elicit' | 'sample'): ActiveCall {
    const able = this.calls.filter((c) => c.hooks[kind]);
    const what = kind === 'elicit' ? 'ask the user for input' : 'use the host model';
    if (!able.length)
      throw new McpError(ErrorCode.InvalidRequest, `No tool call that could ${what} is running.`);
    // Every running call counts, not only those that could answer: the request may be for a call that
    // cannot (an MCP App's call has no one to ask), and then must not reach another user's call instead.
    if (new Set(this.calls.map((c) => c.owner)).size > 1)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Calls of several users are running on this shared connection; cannot tell whom to ${what}.`,
      );
    return able[able.length - 1] as ActiveCall;
  }

  /** Runs a request on `call` unless MAX_WAITING_PER_CALL of its requests wait already. */
  private async hold<T>(call: ActiveCall, run: () => Promise<T>): Promise<T> {
    if (call.waiting >= MAX_WAITING_PER_CALL)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${MAX_WAITING_PER_CALL} requests of this tool call already wait for an answer; ask again once they are answered.`,
      );
    call.waiting++;
    try {
      return await run();
    } finally {
      call.waiting--;
    }
  }

  async elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const call = this.target('elicit');
    const result = await this.hold(call, () =>
      (call.hooks.elicit as NonNullable<CallHooks['elicit']>)(
        params,
        AbortSignal.any([signal, call.ended.signal]),
      ),
    );
    if (params.mode === 'url' && result.action === 'accept' && this.calls.includes(call))
      this.pendingUrls.set(params.elicitationId, call);
    return result;
  }

  /** notifications/elicitation/complete: told to the call that accepted that elicitation, if it still runs. */
  completed(elicitationId: string): void {
    const call = this.pendingUrls.get(elicitationId);
    this.pendingUrls.delete(elicitationId);
    call?.hooks.elicitationComplete?.(elicitationId);
  }

  async sample(
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const call = this.target('sample');
    return this.hold(call, () =>
      (call.hooks.sample as NonNullable<CallHooks['sample']>)(
        params,
        AbortSignal.any([signal, call.ended.signal]),
      ),
    );
  }
}
