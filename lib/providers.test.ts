import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Principal } from '@/lib/access';
import type { Env } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { listModels, type ModelSources, type ProviderSpec, resolveModel } from '@/lib/providers';
import { ProviderCreateSchema, ProviderPatchSchema } from '@/lib/schemas/providers';

const alice: Principal = { id: 'a', email: 'alice@example.com', role: 'user' };
const bob: Principal = { id: 'b', email: 'bob@example.com', role: 'user' };
const root: Principal = { id: 'r', email: 'root@example.com', role: 'admin' };

const provider = (extra: Partial<ProviderSpec>): ProviderSpec => ({
  id: 'p1',
  name: 'corp',
  baseURL: 'http://127.0.0.1:9/v1',
  apiKey: 'sk-x',
  models: ['cheap', 'pricey', 'secret'],
  toolCalling: 'native',
  version: '1',
  allow: ['*'],
  modelAllow: {},
  noVision: [],
  ...extra,
});

const sources = (p: ProviderSpec): ModelSources => ({
  env: { CHAT_MODEL: 'env-model' } as Env, // no key, no base URL: the env provider is not configured
  providers: [p],
  ollama: {
    reachable: false,
    models: [],
    baseURL: 'http://127.0.0.1:9',
  } as unknown as ModelSources['ollama'],
});

const ids = (who: Principal, p: ProviderSpec) => listModels(sources(p), who).map((m) => m.id);

test('a provider limited to a role or emails lists its models only to them; per-model lists replace it', () => {
  const p = provider({
    allow: ['user', 'root@example.com'],
    modelAllow: { pricey: ['admin'], secret: ['alice@example.com'] },
  });
  assert.deepEqual(ids(alice, p), ['corp/cheap', 'corp/secret']);
  assert.deepEqual(ids(bob, p), ['corp/cheap']);
  assert.deepEqual(ids(root, p), ['corp/cheap', 'corp/pricey']);
});

test('a model the user may not use is refused as an unknown one is (also as a stored default); the default is one they may use', () => {
  const p = provider({ modelAllow: { cheap: ['admin'] } });
  assert.equal(resolveModel(sources(p), undefined, bob)?.info.id, 'corp/pricey');
  assert.equal(resolveModel(sources(p), undefined, root)?.info.id, 'corp/cheap');
  const refusal = (id: string) => {
    try {
      resolveModel(sources(p), id, bob);
    } catch (err) {
      return err instanceof AppError ? { code: err.code, message: err.message.replace(id, 'ID') } : err;
    }
    assert.fail(`${id} was not refused`);
  };
  // The same answer for a restricted id as for one that does not exist: nothing tells a prober which it is.
  assert.deepEqual(refusal('corp/cheap'), refusal('corp/nope'));
  assert.equal((refusal('corp/nope') as { code: string }).code, 'bad_request');
  const none = provider({ allow: ['admin'] });
  assert.throws(() => resolveModel(sources(none), undefined, bob), /No model is available to you/);
});

test('access lists are validated: roles, "*" or emails only', () => {
  const base = { name: 'x', baseURL: 'https://example.com/v1' };
  assert.equal(ProviderCreateSchema.safeParse({ ...base, allow: ['everyone'] }).success, false);
  assert.equal(
    ProviderCreateSchema.safeParse({ ...base, modelAllow: { m: ['not an email'] } }).success,
    false,
  );
  assert.deepEqual(ProviderCreateSchema.parse(base).allow, ['*']);
  assert.equal(ProviderPatchSchema.safeParse({ allow: ['admin', 'a@b.co'] }).success, true);
});

test('models see images unless the admin lists them under noVision', () => {
  const p = provider({ noVision: ['pricey'] });
  assert.equal(resolveModel(sources(p), 'corp/cheap', bob)?.vision, true);
  assert.equal(resolveModel(sources(p), 'corp/pricey', bob)?.vision, false);
  assert.deepEqual(ProviderCreateSchema.parse({ name: 'x', baseURL: 'https://example.com/v1' }).noVision, []);
  assert.equal(ProviderPatchSchema.safeParse({ noVision: [''] }).success, false);
});
