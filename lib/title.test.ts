import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cleanTitle, TITLE_MAX, titleFrom } from '@/lib/title';

describe('cleanTitle: a model-written title is untrusted text', () => {
  test('one line: the first non-empty one', () => {
    assert.equal(cleanTitle('\n\n  Trip to Lisbon  \nSecond line'), 'Trip to Lisbon');
  });
  test('no surrounding quotes, labels, Markdown marks or final full stop', () => {
    assert.equal(cleanTitle('"Trip to Lisbon"'), 'Trip to Lisbon');
    assert.equal(cleanTitle('“Trip to Lisbon”.'), 'Trip to Lisbon');
    assert.equal(cleanTitle('Title: Trip to Lisbon'), 'Trip to Lisbon');
    assert.equal(cleanTitle('## **Trip to Lisbon**'), 'Trip to Lisbon');
    assert.equal(cleanTitle('标题：里斯本之旅。'), '里斯本之旅');
    assert.equal(cleanTitle('「里斯本之旅」'), '里斯本之旅');
  });
  test('quotes inside the title stay', () => {
    assert.equal(cleanTitle("Rust's borrow checker"), "Rust's borrow checker");
  });
  test('control and format characters become spaces; whitespace folds', () => {
    assert.equal(cleanTitle('Trip\u0007to\u202eLisbon\tnow'), 'Trip to Lisbon now');
  });
  test('a reasoning preamble is dropped', () => {
    assert.equal(cleanTitle('<think>The user wants\na title</think>\nLisbon trip'), 'Lisbon trip');
  });
  test(`at most ${TITLE_MAX} characters, cut with an ellipsis, never inside a character`, () => {
    const long = cleanTitle('word '.repeat(40)) ?? '';
    assert.equal([...long].length, TITLE_MAX);
    assert.ok(long.endsWith('…'));
    const emoji = cleanTitle('😀'.repeat(100)) ?? '';
    assert.equal([...emoji].length, TITLE_MAX);
    assert.ok(!emoji.includes('\ufffd'));
  });
  test('nothing left: null (the first words stay)', () => {
    for (const raw of ['', '   \n ', '""', '**', 'Title:']) assert.equal(cleanTitle(raw), null, raw);
  });
  test('a plain title from the first words is unchanged by cleaning (titleFrom, same cap)', () => {
    assert.equal(titleFrom('x'.repeat(200)).length, TITLE_MAX);
    assert.equal(cleanTitle(titleFrom('Plan a trip to Lisbon')), 'Plan a trip to Lisbon');
  });
});
