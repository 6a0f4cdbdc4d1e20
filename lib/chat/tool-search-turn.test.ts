// A whole chat turn in search mode (runChatTurn with a mock model): what each model request carries,
// which tools run, and how searches count against the tool-call limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { dynamicTool, JsonToSseTransformStream, jsonSchema, type ToolSet } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { runChatTurn, type Toolkit } from '@/lib/chat/run-turn';
import { SEARCH_TOOL } from '@/lib/chat/tool-search';
import type { ToolEntry } from '@/lib/chat/tools';
import type { ChatMessage, ToolPart } from '@/lib/schemas/chat';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};
const finish = (unified: 'tool-calls' | 'stop') =>
  ({ type: 'finish', finishReason: { unified, raw: unified }, usage }) as LanguageModelV4StreamPart;
const call = (toolName: string, input: object): LanguageModelV4StreamPart[] => [
  { type: 'tool-call', toolCallId: `c${Math.random()}`, toolName, input: JSON.stringify(input) },
  finish('tool-calls'),
];
const text = (t: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: t },
  { type: 'text-end', id: 't' },
  finish('stop'),
];

/** A model that plays `steps` in order, then answers "done". */
function scripted(steps: LanguageModelV4StreamPart[][]) {
  let i = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream(steps[i++] ?? text('done')) }),
  });
}

const TOPICS = ['weather', 'invoice', 'calendar'];

/** `n` tools `many__widget_0001`…, each about one topic; `ran` records the ones executed. */
function bigToolkit(n: number, ran: string[]): Toolkit {
  const tools: ToolSet = {};
  const entries = new Map<string, ToolEntry>();
  for (let i = 1; i <= n; i++) {
    const name = `widget_${String(i).padStart(4, '0')}`;
    const exposed = `many__${name}`;
    const description = `Widget ${i} handles ${TOPICS[i % 3]} tasks.`;
    entries.set(exposed, {
      exposed,
      server: 'many',
      tool: { name, description, inputSchema: { type: 'object' } },
      approval: 'auto',
    });
    tools[exposed] = dynamicTool({
      description,
      inputSchema: jsonSchema({ type: 'object' }),
      execute: async () => {
        ran.push(exposed);
        return { content: [{ type: 'text', text: `${name} ran` }] };
      },
    });
  }
  return { tools, entries, isAllowed: () => true };
}

async function turn(model: MockLanguageModelV4, toolkit: Toolkit, maxToolCalls = 20) {
  let saved: ChatMessage | null = null;
  const res = await runChatTurn({
    model,
    modelId: 'mock',
    instructions: 'be brief',
    history: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    abortSignal: new AbortController().signal,
    save: (m) => {
      saved = m;
    },
    prepareTools: () => toolkit,
    toolMode: 'auto',
    enforceToolChoice: true,
    maxSteps: 10,
    maxToolCalls,
    maxParallelTools: 5,
    approvalSecret: 'secret',
    toolSearch: { maxTools: 40, maxTokens: 10_000 },
    vision: true,
  });
  await new Response(
    res.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream()),
  ).text();
  const parts = (saved as ChatMessage | null)?.parts ?? [];
  return parts.filter((p): p is ToolPart => p.type === 'dynamic-tool');
}

const requestTools = (model: MockLanguageModelV4, step: number) =>
  model.doStreamCalls[step]?.tools?.map((t) => t.name) ?? [];

describe('a turn in search mode', () => {
  test('the first request carries only the search tool; what it finds is sent next and runs', async () => {
    const ran: string[] = [];
    const model = scripted([
      call(SEARCH_TOOL, { query: 'invoice', limit: 3 }),
      call('many__widget_0001', {}),
    ]);
    const calls = await turn(model, bigToolkit(200, ran));

    assert.deepEqual(requestTools(model, 0), [SEARCH_TOOL]);
    // widget 1, 4, 7 are the invoice ones (i % 3 === 1).
    assert.deepEqual(requestTools(model, 1).sort(), [
      'many__widget_0001',
      'many__widget_0004',
      'many__widget_0007',
      SEARCH_TOOL,
    ]);
    assert.deepEqual(ran, ['many__widget_0001']);
    assert.deepEqual(
      calls.map((c) => [c.toolName, c.state]),
      [
        [SEARCH_TOOL, 'output-available'],
        ['many__widget_0001', 'output-available'],
      ],
    );
    // The search shows as a built-in call, not as an MCP server's.
    assert.deepEqual(calls[0]?.toolMetadata, { server: 'built-in', tool: SEARCH_TOOL });
  });

  test('a tool that was not found is not callable and never runs', async () => {
    const ran: string[] = [];
    const model = scripted([call('many__widget_0002', {})]);
    const calls = await turn(model, bigToolkit(200, ran));
    assert.deepEqual(ran, []);
    assert.equal(calls.find((c) => c.toolName === 'many__widget_0002')?.state, 'output-error');
  });

  test('searches do not count toward the tool-call limit', async () => {
    const ran: string[] = [];
    const model = scripted([
      call(SEARCH_TOOL, { query: 'weather' }),
      call(SEARCH_TOOL, { query: 'calendar' }),
      call('many__widget_0003', {}),
      call('many__widget_0002', {}),
    ]);
    await turn(model, bigToolkit(200, ran), 1);
    assert.deepEqual(ran, ['many__widget_0003']);
    assert.notEqual(model.doStreamCalls[2]?.toolChoice?.type, 'none');
    assert.equal(model.doStreamCalls[3]?.toolChoice?.type, 'none');
  });

  test('a small catalog is sent whole, without the search tool', async () => {
    const model = scripted([]);
    await turn(model, bigToolkit(5, []));
    assert.equal(requestTools(model, 0).length, 5);
    assert.ok(!requestTools(model, 0).includes(SEARCH_TOOL));
  });
});
