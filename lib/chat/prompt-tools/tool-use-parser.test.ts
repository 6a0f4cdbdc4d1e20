import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanArguments, parseToolUses, ToolUseParser, type ToolUseEvent } from './tool-use-parser';

function counter() {
  let n = 0;
  return () => `id${++n}`;
}

/** Runs `chunks` through a parser and merges adjacent text events (their split depends on the chunking). */
function run(chunks: string[]): ToolUseEvent[] {
  const parser = new ToolUseParser(counter());
  const events = [...chunks.flatMap((c) => parser.push(c)), ...parser.end()];
  const merged: ToolUseEvent[] = [];
  for (const e of events) {
    const prev = merged.at(-1);
    if (e.type === 'text' && prev?.type === 'text') prev.text += e.text;
    else merged.push({ ...e });
  }
  return merged;
}

const textOf = (events: ToolUseEvent[]) =>
  events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
const calls = (events: ToolUseEvent[]) => events.filter((e) => e.type === 'tool-call');

const TWO_CALLS =
  'Let me check < both.\n<tool_use>\n  <name> add </name>\n  <arguments>\n{"a": 1, "b": 2}\n</arguments>\n</tool_use>\n' +
  'and <tool_use><name>tests_echo</name><arguments>```json\n{"text":"<hi>"}\n```</arguments></tool_use> done.';

test('a two-call answer split at every index gives the same events, and no tag text', () => {
  const whole = run([TWO_CALLS]);
  assert.deepEqual(whole, [
    { type: 'text', text: 'Let me check < both.\n' },
    { type: 'tool-start', id: 'id1' },
    { type: 'tool-call', id: 'id1', name: 'add', argumentsJson: '{"a": 1, "b": 2}' },
    { type: 'text', text: '\nand ' },
    { type: 'tool-start', id: 'id2' },
    { type: 'tool-call', id: 'id2', name: 'tests_echo', argumentsJson: '{"text":"<hi>"}' },
    { type: 'text', text: ' done.' },
  ]);
  for (let i = 0; i <= TWO_CALLS.length; i++) {
    assert.deepEqual(run([TWO_CALLS.slice(0, i), TWO_CALLS.slice(i)]), whole, `split at ${i}`);
  }
  for (let i = 0; i < TWO_CALLS.length; i++) {
    for (const j of [i + 1, i + 3, i + 11]) {
      assert.deepEqual(
        run([TWO_CALLS.slice(0, i), TWO_CALLS.slice(i, j), TWO_CALLS.slice(j)]),
        whole,
        `split at ${i}, ${j}`,
      );
    }
  }
  assert.deepEqual(run([...TWO_CALLS]), whole, 'one character at a time');
  assert.doesNotMatch(textOf(whole), /tool_use|<name>|<arguments>/);
});

test('text is emitted as soon as it cannot be a tag', () => {
  const parser = new ToolUseParser(counter());
  assert.deepEqual(parser.push('Hello <to'), [{ type: 'text', text: 'Hello ' }]);
  assert.deepEqual(parser.push('day> is'), [{ type: 'text', text: '<today> is' }]);
  assert.deepEqual(parser.push(' fine <'), [{ type: 'text', text: ' fine ' }]);
  assert.deepEqual(parser.push('tool_use'), []);
  assert.deepEqual(parser.push('>'), [{ type: 'tool-start', id: 'id1' }]);
  assert.deepEqual(parser.push('<name>x</name></tool_'), []);
  assert.deepEqual(parser.push('use>!'), [
    { type: 'tool-call', id: 'id1', name: 'x', argumentsJson: '{}' },
    { type: 'text', text: '!' },
  ]);
  assert.deepEqual(parser.end(), []);
});

test('plain text streams through unchanged', () => {
  const text = 'Plain **markdown** with <b>html</b>, a < b, x<y and `code`.\n\nBye';
  const parser = new ToolUseParser();
  const events = [...text.split(/(?=\s)/).flatMap((c) => parser.push(c)), ...parser.end()];
  assert.ok(events.every((e) => e.type === 'text'));
  assert.equal(textOf(events), text);
});

test('a lone < or <tool at the end is text', () => {
  assert.deepEqual(run(['a <']), [{ type: 'text', text: 'a <' }]);
  assert.deepEqual(run(['a ', '<tool']), [{ type: 'text', text: 'a <tool' }]);
  assert.deepEqual(run(['<tool_use']), [{ type: 'text', text: '<tool_use' }]);
});

test('fenced, padded, missing and invalid arguments; unknown names pass through', () => {
  const call = (body: string) => calls(parseToolUses(`<tool_use>${body}</tool_use>`, counter()))[0];
  assert.equal(call('<name>a</name><arguments>```\n{"x":1}\n```</arguments>')?.argumentsJson, '{"x":1}');
  assert.equal(call('<name>a</name><arguments> ```json {"x":1} ``` </arguments>')?.argumentsJson, '{"x":1}');
  assert.equal(call('<name>a</name><arguments>\n\t {"x":1}  \n</arguments>')?.argumentsJson, '{"x":1}');
  assert.equal(call('<name>a</name>')?.argumentsJson, '{}');
  assert.equal(call('<name>a</name><arguments>  </arguments>')?.argumentsJson, '{}');
  assert.deepEqual(call('<name>no_such_tool</name><arguments>{a: 1,</arguments>'), {
    type: 'tool-call',
    id: 'id1',
    name: 'no_such_tool',
    argumentsJson: '{a: 1,',
  });
  assert.deepEqual(call('{"name": "add", "arguments": {"a": 1}}'), {
    type: 'tool-call',
    id: 'id1',
    name: 'add',
    argumentsJson: '{"a":1}',
  });
  assert.equal(call('<arguments>{}</arguments>')?.name, '');
  assert.equal(cleanArguments('```json\n[1]\n```'), '[1]');
});

test('an unclosed block ends as an incomplete call, never as tag text', () => {
  const events = run(['Sure. <tool_use><name>add</name><arguments>{"a": 1', ', "b"']);
  assert.deepEqual(events, [
    { type: 'text', text: 'Sure. ' },
    { type: 'tool-start', id: 'id1' },
    { type: 'tool-call', id: 'id1', name: 'add', argumentsJson: '{"a": 1, "b"', incomplete: true },
  ]);
  const cut = run(['<tool_use><name>add</name><arguments>{}</arguments></tool_u']);
  assert.deepEqual(calls(cut), [
    { type: 'tool-call', id: 'id1', name: 'add', argumentsJson: '{}', incomplete: true },
  ]);
  assert.deepEqual(calls(run(['<tool_use><na'])), [
    { type: 'tool-call', id: 'id1', name: '', argumentsJson: '{}', incomplete: true },
  ]);
});
