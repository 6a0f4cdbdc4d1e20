import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAnswer, type ElicitField, formFields } from '@/lib/elicitation-form';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
    tier: {
      type: 'string',
      oneOf: [
        { const: 'gold', title: 'Gold' },
        { const: 'free', title: 'Free' },
      ],
    },
    quantity: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
    ratio: { type: 'number', maximum: 1 },
    gift: { type: 'boolean', default: false },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    when: { type: 'string', format: 'date' },
  },
  required: ['name', 'email', 'size'],
};

const fieldsOf = (s: unknown): ElicitField[] => {
  const form = formFields(s);
  assert.ok('fields' in form, JSON.stringify(form));
  return form.fields;
};

describe('formFields', () => {
  test('every kind MCP allows, labelled by title else name, with choices and bounds', () => {
    const fields = fieldsOf(schema);
    assert.deepEqual(
      fields.map((f) => [f.key, f.label, f.kind, f.required]),
      [
        ['name', 'Your name', 'string', true],
        ['email', 'email', 'string', true],
        ['size', 'size', 'select', true],
        ['tier', 'tier', 'select', false],
        ['quantity', 'quantity', 'number', false],
        ['ratio', 'ratio', 'number', false],
        ['gift', 'gift', 'boolean', false],
        ['tags', 'tags', 'multi', false],
        ['when', 'when', 'string', false],
      ],
    );
    const size = fields[2] as Extract<ElicitField, { kind: 'select' }>;
    assert.deepEqual(size.options, [
      { value: 's', label: 'Small' },
      { value: 'm', label: 'Medium' },
    ]);
    const tier = fields[3] as Extract<ElicitField, { kind: 'select' }>;
    assert.deepEqual(tier.options[0], { value: 'gold', label: 'Gold' });
  });

  test('a nested object or a list without choices is refused with the field named', () => {
    assert.deepEqual(formFields({ type: 'object', properties: { x: { type: 'object' } } }), {
      error: 'Field "x" has a type this form cannot show.',
    });
    assert.deepEqual(
      formFields({ type: 'object', properties: { x: { type: 'array', items: { type: 'string' } } } }),
      {
        error: 'Field "x" is a list without choices.',
      },
    );
    assert.ok('error' in formFields(null));
  });
});

describe('checkAnswer', () => {
  const fields = fieldsOf(schema);

  test('a valid answer: defaults fill empty optional fields, unknown keys are dropped', () => {
    assert.deepEqual(checkAnswer(fields, { name: 'Ada', email: 'ada@example.com', size: 'm', extra: 'x' }), {
      content: { name: 'Ada', email: 'ada@example.com', size: 'm', quantity: 1, gift: false },
    });
  });

  test('each problem is named on its field', () => {
    const result = checkAnswer(fields, {
      name: 'A',
      email: 'not-an-email',
      tier: 'platinum',
      quantity: 2.5,
      ratio: 3,
      gift: 'yes',
      tags: ['a', 'b', 'c'],
      when: '2026-13-45',
    });
    assert.deepEqual(result, {
      errors: {
        name: 'Use at least 2 characters.',
        email: 'Enter an email address.',
        size: 'This field is required.',
        tier: 'Pick one of the choices.',
        quantity: 'Enter a whole number.',
        ratio: 'Enter 1 or less.',
        gift: 'Choose yes or no.',
        tags: 'Pick at most 2.',
        when: 'Enter a date.',
      },
    });
  });

  test('a multi-select left empty stays empty; one with an unknown choice is refused', () => {
    const ok = checkAnswer(fields, { name: 'Ada', email: 'a@b.co', size: 's', tags: [] });
    assert.deepEqual('content' in ok && ok.content.tags, []);
    const bad = checkAnswer(fields, { name: 'Ada', email: 'a@b.co', size: 's', tags: ['z'] });
    assert.deepEqual('errors' in bad && bad.errors, { tags: 'Pick from the choices.' });
  });
});
