import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLocale, negotiateLocale } from './locales';

test('Accept-Language: the highest quality language we have wins', () => {
  assert.equal(negotiateLocale('zh-CN,zh;q=0.9,en;q=0.8'), 'zh-CN');
  assert.equal(negotiateLocale('en-US,en;q=0.9,zh-CN;q=0.8'), 'en');
  assert.equal(negotiateLocale('fr-FR;q=1, zh-TW;q=0.5, en;q=0.4'), 'zh-CN');
  assert.equal(negotiateLocale('de, en;q=0.1, zh;q=0.2'), 'zh-CN');
  assert.equal(negotiateLocale('ZH-hans-cn'), 'zh-CN');
});

test('Accept-Language: nothing usable, empty or malformed → English', () => {
  for (const h of [undefined, null, '', 'fr, de;q=0.5', '*', ';;;,,q=', 'zh;q=0', 'zh;q=abc, ja']) {
    assert.equal(negotiateLocale(h), 'en', String(h));
  }
});

test('isLocale accepts only ours', () => {
  assert.ok(isLocale('en'));
  assert.ok(isLocale('zh-CN'));
  for (const v of ['zh', 'EN', 'fr', '', null, 1]) assert.ok(!isLocale(v), String(v));
});
