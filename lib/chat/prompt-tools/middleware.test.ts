import assert from 'node:assert/strict';
import { test } from 'node:test';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { dynamicTool, generateText, isStepCount, jsonSchema, streamText, wrapLanguageModel } from 'ai';
import { promptToolsMiddleware } from './middleware';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The parts of a text answer streamed in the given chunks. */
function answer(chunks: string[]): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't0' },
    ...chunks.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't0', delta })),
    { type: 'text-end', id: 't0' },
    { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
  ];
}

/** A model answering call N with `script[N]` (the last one repeats); it records every request. */
function fakeModel(script: string[][]) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: 'fake',
    modelId: 'fake-model',
    supportedUrls: {},
    doGenerate: async (options) => {
      calls.push(options);
      const text = (script[calls.length - 1] ?? script.at(-1) ?? []).join('');
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      calls.push(options);
      const parts = answer(script[calls.length - 1] ?? script.at(-1) ?? []);
      return { stream: new ReadableStream({ start: (c) => [...parts.map((p) => c.enqueue(p)), c.close()] }) };
    },
  };
  return { model: wrapLanguageModel({ model, middleware: promptToolsMiddleware() }), calls };
}

function addTool(ran: unknown[]) {
  return dynamicTool({
    description: 'Adds two numbers',
    inputSchema: jsonSchema({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    }),
    execute: async (input) => {
      ran.push(input);
      const { a, b } = input as { a: number; b: number };
      return String(a + b);
    },
  });
}

const texts = (prompt: LanguageModelV4Prompt, role: string) =>
  prompt
    .filter((m) => m.role === role)
    .map((m) =>
      typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join(''),
    );

async function run(script: string[][]) {
  const ran: unknown[] = [];
  const { model, calls } = fakeModel(script);
  const result = streamText({
    model,
    instructions: 'Be brief.',
    prompt: 'What is 2+3?',
    tools: { tests_add: addTool(ran) },
    stopWhen: isStepCount(3),
  });
  const text = await result.text;
  return { ran, calls, text, steps: await result.steps };
}

test('tools go into the system prompt; a split <tool_use> runs the tool and the results come back as text', async () => {
  const { ran, calls, text, steps } = await run([
    [
      'Let me ',
      'check. <to',
      'ol_use>\n<name>tests_',
      'add</name><argu',
      'ments>{"a": 2, "b"',
      ': 3}</arguments></tool',
      '_use>',
    ],
    ['The answer ', 'is 5.'],
  ]);
  assert.deepEqual(ran, [{ a: 2, b: 3 }]);
  assert.equal(calls.length, 2);
  const first = calls[0] as LanguageModelV4CallOptions;
  assert.equal(first.tools, undefined);
  assert.equal(first.toolChoice, undefined);
  const system = texts(first.prompt, 'system').join('\n');
  assert.match(system, /^Be brief\.\n\n# Tools/);
  assert.match(
    system,
    /<tool>\n<name>tests_add<\/name>\n<description>Adds two numbers<\/description>\n<input_schema>\{"type":"object"/,
  );

  const second = (calls[1] as LanguageModelV4CallOptions).prompt;
  assert.deepEqual(
    second.map((m) => m.role),
    ['system', 'user', 'assistant', 'user'],
  );
  assert.equal(
    texts(second, 'assistant')[0],
    'Let me check. <tool_use><name>tests_add</name><arguments>{"a":2,"b":3}</arguments></tool_use>',
  );
  assert.equal(texts(second, 'user')[1], '<tool_result name="tests_add">\n5\n</tool_result>');

  assert.equal(steps[0]?.finishReason, 'tool-calls');
  assert.equal(steps[0]?.toolCalls[0]?.toolCallId.startsWith('ptc_'), true);
  assert.equal(steps[0]?.text, 'Let me check. ');
  assert.equal(text, 'The answer is 5.');
  for (const step of steps) assert.doesNotMatch(JSON.stringify(step.content), /tool_use|<name>|<arguments>/);
});

test('two calls in one answer run in parallel and both results come back in one user message', async () => {
  const call = (a: number) =>
    `<tool_use><name>tests_add</name><arguments>{"a":${a},"b":1}</arguments></tool_use>`;
  const { ran, calls } = await run([[`${call(1)}\n${call(2)}`], ['Done.']]);
  assert.deepEqual(ran, [
    { a: 1, b: 1 },
    { a: 2, b: 1 },
  ]);
  const results = texts((calls[1] as LanguageModelV4CallOptions).prompt, 'user')[1];
  assert.equal(
    results,
    '<tool_result name="tests_add">\n2\n</tool_result>\n\n<tool_result name="tests_add">\n3\n</tool_result>',
  );
});

test('invalid JSON does not run the tool; the model is told the call was invalid', async () => {
  const { ran, calls, text } = await run([
    ['<tool_use><name>tests_add</name><arguments>{"a": 2,</arguments></tool_use>'],
    ['Sorry.'],
  ]);
  assert.deepEqual(ran, []);
  const result = texts((calls[1] as LanguageModelV4CallOptions).prompt, 'user')[1] ?? '';
  assert.match(
    result,
    /^<tool_result name="tests_add">\nError: .*Invalid input for tool tests_add: .*JSON parsing failed/,
  );
  assert.equal(text, 'Sorry.');
});

test('an unknown tool name does not run; the model gets an error result', async () => {
  const { ran, calls } = await run([
    ['<tool_use><name>nope</name><arguments>{}</arguments></tool_use>'],
    ['Sorry.'],
  ]);
  assert.deepEqual(ran, []);
  const result = texts((calls[1] as LanguageModelV4CallOptions).prompt, 'user')[1] ?? '';
  assert.match(result, /^<tool_result name="nope">\nError: .*nope/);
});

test('an unclosed block is reported as an invalid call, even with complete arguments', async () => {
  const { ran, calls, text } = await run([
    ['Ok <tool_use><name>tests_add</name><arguments>{"a":1,"b":1}</arguments>'],
    ['Fixed.'],
  ]);
  assert.deepEqual(ran, []);
  const result = texts((calls[1] as LanguageModelV4CallOptions).prompt, 'user')[1] ?? '';
  assert.match(result, /Error: .*Invalid input for tool tests_add[\s\S]*never closed/);
  assert.equal(text, 'Fixed.');
});

test('tool choice none: no tool list, and a <tool_use> in the answer is hidden and not run', async () => {
  const ran: unknown[] = [];
  const { model, calls } = fakeModel([
    ['Answer. <tool_use><name>tests_add</name><arguments>{"a":1,"b":1}</arguments></tool_use>'],
  ]);
  const result = streamText({ model, prompt: 'hi', tools: { tests_add: addTool(ran) }, toolChoice: 'none' });
  assert.equal(await result.text, 'Answer. ');
  assert.deepEqual(ran, []);
  assert.match(
    texts((calls[0] as LanguageModelV4CallOptions).prompt, 'system')[0] ?? '',
    /^Tools are not available/,
  );
});

test('without tools or tool history the model is left alone', async () => {
  const { model, calls } = fakeModel([['Plain <tool_use> text']]);
  const result = streamText({ model, prompt: 'hi' });
  assert.equal(await result.text, 'Plain <tool_use> text');
  assert.deepEqual(
    (calls[0] as LanguageModelV4CallOptions).prompt.map((m) => m.role),
    ['user'],
  );
});

test('generateText: calls are parsed from the whole answer', async () => {
  const ran: unknown[] = [];
  const { model, calls } = fakeModel([
    ['Sure. <tool_use><name>tests_add</name><arguments>```json\n{"a":4,"b":4}\n```</arguments></tool_use>'],
    ['8.'],
  ]);
  const result = await generateText({
    model,
    prompt: 'hi',
    tools: { tests_add: addTool(ran) },
    stopWhen: isStepCount(3),
  });
  assert.deepEqual(ran, [{ a: 4, b: 4 }]);
  assert.equal(result.steps[0]?.finishReason, 'tool-calls');
  assert.equal(result.text, '8.');
  assert.match(
    texts((calls[1] as LanguageModelV4CallOptions).prompt, 'user')[1] ?? '',
    /<tool_result name="tests_add">\n8\n/,
  );
});

test('stream parts: text blocks close before a call, the call is four parts, finish says tool-calls', async () => {
  const { model } = fakeModel([
    ['Hi <tool_use><name>x</name><arguments>{"q":1}</arguments></tool_use>\n  ', 'Bye'],
  ]);
  const params: LanguageModelV4CallOptions = {
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: [{ type: 'function', name: 'x', inputSchema: { type: 'object' } }],
  };
  const { stream } = await model.doStream(params);
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  const id = (parts.find((p) => p.type === 'tool-call') as { toolCallId: string }).toolCallId;
  assert.match(id, /^ptc_\w{20}$/);
  assert.deepEqual(parts.slice(1), [
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'Hi ' },
    { type: 'text-end', id: 't0' },
    { type: 'tool-input-start', id, toolName: 'x' },
    { type: 'tool-input-delta', id, delta: '{"q":1}' },
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName: 'x', input: '{"q":1}' },
    { type: 'text-start', id: 't0-2' },
    { type: 'text-delta', id: 't0-2', delta: 'Bye' },
    { type: 'text-end', id: 't0-2' },
    { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'stop' } },
  ]);
});
