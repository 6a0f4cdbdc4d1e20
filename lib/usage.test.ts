import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { costOf, formatCost, parsePrices, pricesText, sumUsage } from '@/lib/usage';

describe('cost', () => {
  test('tokens times the price per 1M input and output tokens', () => {
    assert.equal(costOf({ inputTokens: 1_000_000, outputTokens: 500_000 }, { input: 2.5, output: 10 }), 7.5);
    assert.equal(
      costOf({ inputTokens: 12, outputTokens: 34, totalTokens: 46 }, { input: 3, output: 15 }),
      0.000546,
    );
  });
  test('no price or no token counts: no cost', () => {
    assert.equal(costOf({ inputTokens: 10, outputTokens: 10 }, undefined), undefined);
    assert.equal(costOf(undefined, { input: 1, output: 1 }), undefined);
    assert.equal(costOf({ totalTokens: 10 }, { input: 1, output: 1 }), undefined);
  });
  test('a free model costs $0', () => {
    assert.equal(costOf({ inputTokens: 10, outputTokens: 10 }, { input: 0, output: 0 }), 0);
    assert.equal(formatCost(0), '$0');
  });
  test('shown with enough digits to be non-zero', () => {
    assert.equal(formatCost(7.5), '$7.50');
    assert.equal(formatCost(0.0123), '$0.0123');
    assert.equal(formatCost(0.000546), '$0.000546');
    assert.equal(formatCost(0.00005), '$0.00005');
  });
});

describe('per-conversation totals', () => {
  test('sums tokens and cost over the answers that report usage', () => {
    const totals = sumUsage([
      { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, cost: 0.1 },
      undefined,
      { usage: { inputTokens: 20, outputTokens: 7 }, cost: 0.2 },
      {},
    ]);
    assert.deepEqual(totals, { inputTokens: 30, outputTokens: 12, totalTokens: 42, cost: 0.3, answers: 2 });
  });
  test('no answer with a cost: no cost total', () => {
    assert.equal(sumUsage([{ usage: { inputTokens: 1, outputTokens: 1 } }]).cost, undefined);
  });
});

describe('admin prices text', () => {
  test('`model: input, output` per line, and back', () => {
    const parsed = parsePrices('gpt-x: 2.5, 10\n\n  prov/m:1: 0, 0.5 \n');
    assert.deepEqual(parsed, {
      value: { 'gpt-x': { input: 2.5, output: 10 }, 'prov/m:1': { input: 0, output: 0.5 } },
    });
    assert.equal(pricesText({ 'gpt-x': { input: 2.5, output: 10 } }), 'gpt-x: 2.5, 10');
  });
  test('a malformed line is named', () => {
    assert.deepEqual(parsePrices('ok: 1, 2\nbad 1, 2'), { line: 2 });
    assert.deepEqual(parsePrices('m: 1'), { line: 1 });
    assert.deepEqual(parsePrices('m: -1, 2'), { line: 1 });
    assert.deepEqual(parsePrices('m: x, 2'), { line: 1 });
    assert.deepEqual(parsePrices('m: , 2'), { line: 1 });
  });
});
