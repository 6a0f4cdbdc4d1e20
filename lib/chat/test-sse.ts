/** Chat Completions stream events for the streaming tests (coalesce-sse, provider-fetch). */

/** One Chat Completions chunk as an SSE event. */
export const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }],
  })}\n\n`;
export const finish = `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
export const usage = `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } })}\n\n`;
export const DONE = 'data: [DONE]\n\n';
