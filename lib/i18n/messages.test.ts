/**
 * The two catalogs (messages/en.json, messages/zh-CN.json) stay complete and consistent: the same keys,
 * the same ICU placeholders in each message, no empty message, and no Chinese message left as a copy of
 * the English one (except names that are the same in both languages).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

type Tree = { [key: string]: string | Tree };
const load = (locale: string): Tree => JSON.parse(readFileSync(`messages/${locale}.json`, 'utf8'));

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** `{name}`, `{count, plural, …}`, `<b>…</b>`: the arguments and tags a message uses. */
function placeholders(message: string): string[] {
  const args = [...message.matchAll(/\{\s*([A-Za-z_][\w]*)\s*[,}]/g)].map((m) => `{${m[1]}}`);
  const tags = [...message.matchAll(/<\/?([A-Za-z][\w-]*)>/g)].map((m) => `<${m[1]}>`);
  return [...new Set([...args, ...tags])].sort();
}

/** Same in every language: product and protocol names. */
const SAME_IN_BOTH = new Set(['app.name']);

const en = flatten(load('en'));
const zh = flatten(load('zh-CN'));

test('every key exists in both languages', () => {
  const missingInZh = [...en.keys()].filter((k) => !zh.has(k));
  const missingInEn = [...zh.keys()].filter((k) => !en.has(k));
  assert.deepEqual(missingInZh, [], 'keys missing in messages/zh-CN.json');
  assert.deepEqual(missingInEn, [], 'keys missing in messages/en.json');
});

test('no message is empty, and each uses the same placeholders in both languages', () => {
  for (const [key, message] of en) {
    assert.ok(message.trim(), `en: ${key} is empty`);
    const other = zh.get(key);
    if (other === undefined) continue;
    assert.ok(other.trim(), `zh-CN: ${key} is empty`);
    assert.deepEqual(placeholders(other), placeholders(message), `placeholders of ${key}`);
  }
});

test('the Chinese catalog is translated, not a copy of the English one', () => {
  const copies = [...en].filter(([key, message]) => zh.get(key) === message && !SAME_IN_BOTH.has(key));
  assert.deepEqual(
    copies.map(([key]) => key),
    [],
  );
});
