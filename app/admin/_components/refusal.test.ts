import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitRefusal } from './refusal';

const KNOWN = ['name', 'baseURL'];

test('a refusal whose reasons all have a field: told at the fields, the form says nothing more', () => {
  assert.deepEqual(
    splitRefusal(
      'Invalid request body: baseURL: must be an http(s) URL',
      { baseURL: 'must be an http(s) URL' },
      KNOWN,
    ),
    { fields: { baseURL: 'must be an http(s) URL' }, formError: null },
  );
});

test('a refusal without reasons, or none with a field of the form: the whole message at the form', () => {
  assert.deepEqual(splitRefusal('The server answered HTTP 500.', undefined, KNOWN), {
    fields: {},
    formError: 'The server answered HTTP 500.',
  });
  assert.deepEqual(
    splitRefusal('Invalid request body: models.0: too long', { 'models.0': 'too long' }, KNOWN),
    {
      fields: {},
      formError: 'Invalid request body: models.0: too long',
    },
  );
});

test('reasons with and without a field: each told once, the others at the form', () => {
  assert.deepEqual(
    splitRefusal(
      'Invalid request body: name: bad',
      { name: 'bad', 'models.0': 'too long', allow: 'empty' },
      KNOWN,
    ),
    { fields: { name: 'bad' }, formError: 'models.0: too long; allow: empty' },
  );
});

test('a reason about an item of a list field (models.3), or deeper: told at that field, with its path', () => {
  const known = ['name', 'models', 'modelAllow', 'prices'];
  assert.deepEqual(
    splitRefusal(
      'Invalid request body: models.3: too long',
      { 'models.3': 'too long', 'prices.gpt-4o.input': 'must be ≥ 0', 'allow.0': 'empty' },
      known,
    ),
    {
      fields: { models: 'models.3: too long', prices: 'prices.gpt-4o.input: must be ≥ 0' },
      formError: 'allow.0: empty',
    },
  );
  // The field's own reason and an item's: both at the field. A field that only starts alike is another.
  assert.deepEqual(
    splitRefusal(
      'Invalid request body',
      { models: 'too many', 'models.0': 'empty', 'modelAllow.x': 'no' },
      known,
    ),
    { fields: { models: 'too many; models.0: empty', modelAllow: 'modelAllow.x: no' }, formError: null },
  );
});
