import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { promptToText, toolsSystemPrompt } from './prompt';

test('the system prompt lists every tool and the exact call format', () => {
  const text = toolsSystemPrompt([
    {
      name: 'tests_add',
      description: 'Adds',
      inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
    },
    { name: 'tests_ping', inputSchema: { type: 'object' } },
  ]);
  assert.match(
    text,
    /<tool_use>\n<name>TOOL_NAME<\/name>\n<arguments>\{"parameter": "value"\}<\/arguments>\n<\/tool_use>/,
  );
  assert.match(text, /several blocks one after another/);
  assert.match(text, /<tool_result name="TOOL_NAME">…<\/tool_result>/);
  assert.match(
    text,
    /<tool>\n<name>tests_add<\/name>\n<description>Adds<\/description>\n<input_schema>\{"type":"object","properties":\{"a":\{"type":"number"\}\}\}<\/input_schema>\n<\/tool>/,
  );
  assert.match(
    text,
    /<tool>\n<name>tests_ping<\/name>\n<input_schema>\{"type":"object"\}<\/input_schema>\n<\/tool>/,
  );
});

test('history: calls become <tool_use> text, results a merged user message, approvals are dropped', () => {
  const prompt: LanguageModelV4Prompt = [
    { role: 'system', content: 'S' },
    { role: 'user', content: [{ type: 'text', text: 'Q' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool-call', toolCallId: '1', toolName: 'a', input: { x: 1 } },
        { type: 'tool-call', toolCallId: '2', toolName: 'b', input: '{bad' },
        { type: 'tool-call', toolCallId: '3', toolName: 'c', input: {} },
        { type: 'tool-call', toolCallId: '4', toolName: 'd', input: {} },
        { type: 'tool-call', toolCallId: '5', toolName: 'e', input: {} },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: 'x', approved: false },
        { type: 'tool-result', toolCallId: '1', toolName: 'a', output: { type: 'json', value: { sum: 2 } } },
        {
          type: 'tool-result',
          toolCallId: '2',
          toolName: 'b',
          output: { type: 'error-text', value: 'Invalid input' },
        },
        {
          type: 'tool-result',
          toolCallId: '3',
          toolName: 'c',
          output: { type: 'execution-denied', reason: 'no' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: '4',
          toolName: 'd',
          output: { type: 'content', value: [{ type: 'text', text: 'hi' }] },
        },
        {
          type: 'tool-result',
          toolCallId: '5',
          toolName: 'e',
          output: { type: 'error-json', value: { code: 1 } },
        },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'y', approved: true }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  ];
  assert.deepEqual(promptToText(prompt), [
    { role: 'system', content: 'S' },
    { role: 'user', content: [{ type: 'text', text: 'Q' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text:
            'Checking.\n<tool_use><name>a</name><arguments>{"x":1}</arguments></tool_use>\n' +
            '<tool_use><name>b</name><arguments>{bad</arguments></tool_use>\n' +
            '<tool_use><name>c</name><arguments>{}</arguments></tool_use>\n' +
            '<tool_use><name>d</name><arguments>{}</arguments></tool_use>\n' +
            '<tool_use><name>e</name><arguments>{}</arguments></tool_use>',
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text:
            '<tool_result name="a">\n{"sum":2}\n</tool_result>\n\n' +
            '<tool_result name="b">\nError: Invalid input\n</tool_result>\n\n' +
            '<tool_result name="c">\nThe user denied this call. Reason: no\n</tool_result>\n\n' +
            '<tool_result name="d">\nhi\n</tool_result>\n\n' +
            '<tool_result name="e">\nError: {"code":1}\n</tool_result>',
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  ]);
});

test('an assistant message with only calls gets a text part', () => {
  const out = promptToText([
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: '1', toolName: 'a', input: { q: 'x' } }],
    },
  ]);
  assert.deepEqual(out, [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: '<tool_use><name>a</name><arguments>{"q":"x"}</arguments></tool_use>' },
      ],
    },
  ]);
});
