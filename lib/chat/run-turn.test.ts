import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { dynamicTool, jsonSchema } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { runChatTurn, type Toolkit } from '@/lib/chat/run-turn';
import { JsonToSseTransformStream } from 'ai';
import type { ToolEntry } from '@/lib/chat/tools';
import type { ChatMessage } from '@/lib/schemas/chat';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};
const toolCallStep = (): LanguageModelV4StreamPart[] => [
  { type: 'tool-call', toolCallId: `c${Math.random()}`, toolName: 'srv__ping', input: '{}' },
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
  } as LanguageModelV4StreamPart,
];
const textStep = (text: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: text },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage } as LanguageModelV4StreamPart,
];

/** A model that calls the tool on its first `toolSteps` steps, then answers. */
function scriptedModel(toolSteps: number) {
  let step = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: convertArrayToReadableStream(step++ < toolSteps ? toolCallStep() : textStep('done')),
    }),
  });
}

const toolkit = (): Toolkit => {
  const entry = {
    exposed: 'srv__ping',
    server: 'srv',
    tool: { name: 'ping', inputSchema: { type: 'object' } },
    approval: 'auto',
  } as ToolEntry;
  return {
    tools: {
      srv__ping: dynamicTool({
        description: 'ping',
        inputSchema: jsonSchema({ type: 'object' }),
        execute: async () => ({ content: [{ type: 'text', text: 'pong' }] }),
      }),
    },
    entries: new Map([['srv__ping', entry]]),
    isAllowed: () => true,
  };
};

async function run(model: MockLanguageModelV4, overrides: Partial<Parameters<typeof runChatTurn>[0]> = {}) {
  let saved: ChatMessage | null = null;
  const history: ChatMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
  const res = await runChatTurn({
    model,
    modelId: 'mock',
    instructions: 'be brief',
    history,
    abortSignal: new AbortController().signal,
    save: (m) => {
      saved = m;
    },
    prepareTools: () => toolkit(),
    toolMode: 'auto',
    enforceToolChoice: true,
    maxSteps: 10,
    maxToolCalls: 20,
    maxParallelTools: 5,
    approvalSecret: 'secret',
    vision: true,
    ...overrides,
  });
  const body = await new Response(
    res.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream()),
  ).text();
  return { body, saved: saved as ChatMessage | null };
}

describe('tool strategy → model request', () => {
  test('Off sends no tools at all', async () => {
    const model = scriptedModel(0);
    await run(model, { toolMode: 'off' });
    assert.equal(model.doStreamCalls.length, 1);
    assert.equal(model.doStreamCalls[0]?.tools, undefined);
  });

  test('Auto sends the tools and lets the model choose', async () => {
    const model = scriptedModel(1);
    await run(model);
    assert.deepEqual(
      model.doStreamCalls[0]?.tools?.map((t) => t.name),
      ['srv__ping'],
    );
    assert.notEqual(model.doStreamCalls[0]?.toolChoice?.type, 'required');
  });

  test('Required forces a tool call on the first step only', async () => {
    const model = scriptedModel(1);
    const { saved } = await run(model, { toolMode: 'required' });
    assert.equal(model.doStreamCalls.length, 2);
    assert.equal(model.doStreamCalls[0]?.toolChoice?.type, 'required');
    assert.notEqual(model.doStreamCalls[1]?.toolChoice?.type, 'required');
    assert.ok(saved?.parts.some((p) => p.type === 'dynamic-tool'));
  });

  test('Required for a prompt-mode model becomes an instruction, never a forced choice', async () => {
    const model = scriptedModel(1);
    await run(model, { toolMode: 'required', enforceToolChoice: false });
    assert.notEqual(model.doStreamCalls[0]?.toolChoice?.type, 'required');
    assert.match(
      JSON.stringify(model.doStreamCalls[0]?.prompt[0]),
      /call at least one of the available tools/,
    );
  });
});

describe('limits', () => {
  test('a model that keeps calling tools is stopped at the step cap with a visible notice', async () => {
    const model = scriptedModel(1000);
    const { saved } = await run(model, { maxSteps: 3 });
    assert.ok(model.doStreamCalls.length <= 3);
    assert.equal(model.doStreamCalls.at(-1)?.toolChoice?.type, 'none');
    const notice = saved?.parts.find((p) => p.type === 'data-notice');
    assert.match(notice?.data.text ?? '', /limit of 3 steps/);
  });

  test('the tool-call cap asks the model to answer without more tools', async () => {
    const model = scriptedModel(1000);
    const { saved } = await run(model, { maxToolCalls: 2 });
    const calls = saved?.parts.filter((p) => p.type === 'dynamic-tool').length ?? 0;
    assert.equal(calls, 2);
    assert.ok(saved?.parts.some((p) => p.type === 'data-notice'));
  });
});

describe('usage and cost in the answer metadata', () => {
  test("the answer stores its tokens; with the model's price also its cost, streamed to the client too", async () => {
    // Two steps (a tool call, then the answer), 3 input and 2 output tokens each.
    const priced = await run(scriptedModel(1), { price: { input: 1_000_000, output: 500_000 } });
    assert.deepEqual(priced.saved?.metadata?.usage, { inputTokens: 6, outputTokens: 4, totalTokens: 10 });
    assert.equal(priced.saved?.metadata?.cost, 8);
    assert.match(priced.body, /"messageMetadata":\{"usage":\{[^}]*\},"cost":8\}/);
    const free = await run(scriptedModel(0));
    assert.equal(free.saved?.metadata?.usage?.totalTokens, 5);
    assert.equal(free.saved?.metadata?.cost, undefined);
  });
});
