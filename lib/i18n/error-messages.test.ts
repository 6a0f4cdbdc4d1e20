import assert from 'node:assert/strict';
import { test } from 'node:test';
import en from '@/messages/en.json';
import { errorKeyOf, localizeErrorMessage } from '@/lib/i18n/error-messages';

test('known API errors read in Chinese for a Chinese request, placeholders filled; English stays as written', () => {
  assert.equal(localizeErrorMessage('Sign in first.', 'zh-CN'), '请先登录。');
  assert.equal(
    localizeErrorMessage('Too many messages. Try again in 12 s.', 'zh-CN'),
    '消息太多，请 12 秒后再试。',
  );
  assert.equal(localizeErrorMessage('Conversation not found.', 'zh-CN'), '未找到该对话。');
  assert.equal(
    localizeErrorMessage('Too many messages. Try again in 12 s.', 'en'),
    'Too many messages. Try again in 12 s.',
  );
  // Unknown text (a server's own words, a detail) is never altered.
  assert.equal(
    localizeErrorMessage('Server "x" answered with an error: boom', 'zh-CN'),
    'Server "x" answered with an error: boom',
  );
});

test('every English message the table knows reads back as itself from the English catalog', () => {
  const errors = (en as { errors: Record<string, string> }).errors;
  for (const [key, text] of Object.entries(errors)) {
    // The catalog's English is an instance of its pattern (placeholders filled with a number).
    const sample = text.replace(/\{\w+\}/g, '7');
    const known = errorKeyOf(sample);
    if (key === 'alreadyAnswered') continue; // one key for two English sentences
    assert.equal(known?.key, key, `${key}: "${sample}"`);
  }
});

test('a refused model reads in Chinese with its name', () => {
  assert.equal(
    localizeErrorMessage(
      'Model "p/m-2" is not available (it may have been removed or limited). Pick another model.',
      'zh-CN',
    ),
    '模型“p/m-2”不可用（可能已被移除或限制）。请选择其他模型。',
  );
});
