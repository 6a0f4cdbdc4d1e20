import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { dynamicTool, type JSONValue, jsonSchema, type ModelMessage, type ToolResultPart } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { runChatTurn } from '@/lib/chat/run-turn';
import { budgetMedia, MAX_MEDIA_BYTES, toolModelOutput, withToolMedia } from '@/lib/chat/tool-media';
import { capResult, MAX_RESULT_BYTES, type ToolEntry } from '@/lib/chat/tools';
import type { ChatMessage } from '@/lib/schemas/chat';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const image = (data = PNG) => ({ type: 'image' as const, data, mimeType: 'image/png' });
const text = (t: string, audience?: Array<'user' | 'assistant'>) => ({
  type: 'text' as const,
  text: t,
  ...(audience ? { annotations: { audience } } : {}),
});

const toolMessage = (output: ReturnType<typeof toolModelOutput>, id = 'c1'): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'srv__shot', output }],
});
/** The first tool result of a tool message. */
function resultOf(m: ModelMessage | undefined): ToolResultPart {
  const part = m?.role === 'tool' ? m.content[0] : undefined;
  assert.ok(part?.type === 'tool-result', 'a tool result');
  return part;
}
const call = (id = 'c1'): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'srv__shot', input: {} }],
});

describe('toolModelOutput', () => {
  test('text only stays a text output; audience ["user"] is left out, ["assistant"] kept', () => {
    const out = toolModelOutput({
      content: [
        text('USER-ONLY', ['user']),
        text('FOR-MODEL', ['assistant']),
        text('BOTH', ['user', 'assistant']),
      ],
    });
    assert.deepEqual(out, { type: 'text', value: 'FOR-MODEL\nBOTH' });
  });

  test('an image becomes a file part; links, resources and audio become notes, not JSON', () => {
    const out = toolModelOutput({
      content: [
        text('look'),
        image(),
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'https://example.com/r', name: 'report' },
        { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'NOTE BODY' } },
        {
          type: 'resource',
          resource: { uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' },
        },
      ],
    });
    assert.equal(out.type, 'content');
    if (out.type !== 'content') return;
    assert.deepEqual(out.value[1], {
      type: 'file',
      mediaType: 'image/png',
      data: { type: 'data', data: PNG },
    });
    const texts = out.value.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    assert.match(texts, /\[audio audio\/wav, 4 bytes: played to the user/);
    assert.match(texts, /\[resource link: report <https:\/\/example\.com\/r>\]/);
    assert.match(texts, /\[resource file:\/\/\/notes\.txt\]\nNOTE BODY/);
    assert.match(texts, /\[resource file:\/\/\/a\.pdf \(application\/pdf, 4 bytes\): attached for the user/);
  });

  test('an image meant for the user only does not reach the model', () => {
    assert.deepEqual(toolModelOutput({ content: [{ ...image(), annotations: { audience: ['user'] } }] }), {
      type: 'text',
      value: '',
    });
  });
});

describe('withToolMedia', () => {
  const output = toolModelOutput({ content: [text('shot taken'), image()] });

  test('images move to one user message after the step’s tool messages; the tool message keeps a note', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      call('c1'),
      toolMessage(output, 'c1'),
      toolMessage(output, 'c2'),
      { role: 'assistant', content: 'done' },
    ];
    const out = withToolMedia(messages, true);
    assert.deepEqual(
      out.map((m) => m.role),
      ['user', 'assistant', 'tool', 'tool', 'user', 'assistant'],
    );
    assert.deepEqual(resultOf(out[2]).output, {
      type: 'text',
      value: 'shot taken\n[image image/png: shown to you in the next message]',
    });
    const media = out[4]?.content as Array<{ type: string; mediaType?: string }>;
    assert.equal(media.filter((p) => p.type === 'file' && p.mediaType === 'image/png').length, 2);
    assert.deepEqual(withToolMedia(out, true), out, 'idempotent: prepareStep messages carry forward');
  });

  test('a model without vision gets the note and no image', () => {
    const out = withToolMedia([call(), toolMessage(output)], false);
    assert.equal(out.length, 2);
    const note = resultOf(out[1]).output;
    assert.ok(note.type === 'text');
    assert.match(note.value, /\[image image\/png: shown to the user; this model cannot view images\]/);
  });

  test('a raw stored result (tool since removed, or tools off) is read as a tool result, not JSON', () => {
    const raw: CallToolResult = { content: [text('A'), text('hidden', ['user']), image()] };
    const out = withToolMedia([call(), toolMessage({ type: 'json', value: raw as JSONValue })], true);
    assert.deepEqual(resultOf(out[1]).output, {
      type: 'text',
      value: 'A\n[image image/png: shown to you in the next message]',
    });
    assert.equal(out[2]?.role, 'user');
  });
});

describe('media and the 100 KB result cap', () => {
  const big = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

  test('a 300 KB image with its text is kept whole, not cut to a text placeholder', () => {
    const result: CallToolResult = { content: [text('caption'), image(big(300 * 1024))] };
    const capped = capResult(result);
    assert.equal(capped.result, result);
    assert.ok(capped.bytes > MAX_RESULT_BYTES);
  });

  test('over the media budget, an image is replaced by a note saying so', () => {
    const result: CallToolResult = { content: [image(big(MAX_MEDIA_BYTES - 10)), image(big(100))] };
    const kept = budgetMedia(result);
    assert.equal(kept.content[0]?.type, 'image');
    assert.equal(kept.content[1]?.type, 'text');
    assert.match(
      (kept.content[1] as { text: string }).text,
      /image image\/png, 100 bytes: left out, over the/,
    );
  });

  test('long text is cut to the cap and the image stays beside it', () => {
    const result: CallToolResult = { content: [text('x'.repeat(200 * 1024)), image()] };
    const { result: cut } = capResult(result);
    assert.equal(cut.content.length, 2);
    assert.match((cut.content[0] as { text: string }).text, /\[truncated: the result was/);
    assert.deepEqual(cut.content[1], image());
  });
});

describe('through a chat turn', () => {
  const usage = {
    inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 2, text: 2, reasoning: 0 },
  };
  const finish = (unified: 'tool-calls' | 'stop') =>
    ({ type: 'finish', finishReason: { unified, raw: unified }, usage }) as LanguageModelV4StreamPart;
  const steps: LanguageModelV4StreamPart[][] = [
    [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'srv__shot', input: '{}' }, finish('tool-calls')],
    [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'ok' },
      { type: 'text-end', id: 't' },
      finish('stop'),
    ],
  ];

  async function turn(vision: boolean, history?: ChatMessage[]) {
    let n = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: convertArrayToReadableStream(steps[history ? 1 : n++] ?? []) }),
    });
    const entry = {
      exposed: 'srv__shot',
      server: 'srv',
      tool: { name: 'shot', inputSchema: { type: 'object' } },
      approval: 'auto',
    } as ToolEntry;
    const shot = dynamicTool({
      inputSchema: jsonSchema({ type: 'object' }),
      execute: async () => ({ content: [text('taken'), image()] }),
      toModelOutput: ({ output }) => toolModelOutput(output as CallToolResult),
    });
    const stream = await runChatTurn({
      model,
      modelId: 'mock',
      instructions: 'x',
      history: history ?? [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'shoot' }] }],
      abortSignal: new AbortController().signal,
      save: () => {},
      prepareTools: () => ({
        tools: { srv__shot: shot },
        entries: new Map([['srv__shot', entry]]),
        isAllowed: () => true,
      }),
      toolMode: 'auto',
      enforceToolChoice: true,
      maxSteps: 5,
      maxToolCalls: 5,
      maxParallelTools: 1,
      approvalSecret: 's',
      vision,
    });
    const reader = stream.getReader();
    while (!(await reader.read()).done) {}
    return model.doStreamCalls.map((c) => c.prompt);
  }
  const images = (prompt: LanguageModelV4Prompt = []) =>
    prompt.flatMap((m) => (m.role === 'user' ? m.content.filter((p) => p.type === 'file') : [])).length;

  test('the image of this turn’s tool call reaches the next step as an image part', async () => {
    const prompts = await turn(true);
    assert.equal(prompts.length, 2);
    assert.deepEqual(
      prompts[1]?.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'user'],
    );
    assert.equal(images(prompts[1]), 1);
  });

  test('without vision only the note goes', async () => {
    const prompts = await turn(false);
    assert.equal(images(prompts[1]), 0);
    assert.match(JSON.stringify(prompts[1]), /this model cannot view images/);
  });

  test('an image in the stored history is sent again on the next turn', async () => {
    const history: ChatMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'shoot' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          {
            type: 'dynamic-tool',
            toolName: 'srv__shot',
            toolCallId: 'call-1',
            state: 'output-available',
            input: {},
            output: { content: [text('taken'), image()] },
          },
          { type: 'text', text: 'ok' },
        ],
      },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'again?' }] },
    ];
    const prompts = await turn(true, history);
    assert.equal(images(prompts[0]), 1);
  });
});
