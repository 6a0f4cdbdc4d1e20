import { createTranslator } from 'use-intl/core';
import zh from '@/messages/zh-CN.json';
import type { Locale } from './locales';

/**
 * The API's error messages in the request's language. Error sites write English (logs, tests and API
 * clients read it); the answer's `message` (and `fields` values) are translated here when the request's
 * language is Chinese and the text is one we know: each pattern names its key in the `errors` namespace
 * of the catalogs, its groups become the key's placeholders. Unknown text stays English.
 */
const PATTERNS: Array<[RegExp, string, string[]?]> = [
  [/^Sign in first\.$/, 'signIn'],
  [/^Admins only\.$/, 'adminsOnly'],
  [/^Cross-origin request refused\.$/, 'crossOrigin'],
  [/^Request body is not valid JSON\.$/, 'badJson'],
  [/^Request body is not valid UTF-8\.$/, 'badUtf8'],
  [/^The address must not contain the NUL character \(U\+0000\)\.$/, 'nulAddress'],
  [/^must not contain the NUL character \(U\+0000\)$/, 'noNul'],
  [/^Request body must be a JSON object\.$/, 'notObject'],
  [/^Request body is over (\d+) bytes\.$/, 'bodyTooLarge', ['bytes']],
  [/^Some fields need attention\.$/, 'fields'],
  [/^Invalid request\.?$/, 'invalid'],
  [/^Not found\.?$/, 'notFound'],
  [/^Conversation not found\.$/, 'conversationNotFound'],
  [/^Too many messages\. Try again in (\d+) s\.$/, 'tooManyMessages', ['s']],
  [/^Too many imports\. Try again in (\d+) s\.$/, 'tooManyImports', ['s']],
  [/^You already have (\d+) answers in progress\. Wait for one to finish\.$/, 'tooManyAnswers', ['n']],
  [
    /^An answer is still being written in this conversation\. Stop it first, or wait for it to finish\.$/,
    'stillWriting',
  ],
  [/^An answer is still being written here\. Wait for it, or stop it first\.$/, 'stillWriting'],
  [/^The server is restarting\. Try again in a moment\.$/, 'restarting'],
  [/^This message is stored with other text\./, 'editUnderStoredId'],
  [/^This tool call was already answered\.$/, 'alreadyAnswered'],
  [/^This request was already answered\.$/, 'alreadyAnswered'],
  [/^Nothing in this conversation awaits approval\.$/, 'nothingAwaits'],
  [/^No model is available to you\. Ask an admin for access to one\.$/, 'noModel'],
  [
    /^Model "(.+)" is not available \(it may have been removed or limited\)\. Pick another model\.$/,
    'modelGone',
    ['model'],
  ],
  [/^You cannot disable or demote yourself\.$/, 'notYourself'],
  [/^A user with this email exists\.$/, 'emailTaken'],
  [/^is already taken$/, 'taken'],
  [/^is already registered$/, 'registered'],
  [/^Something went wrong on our side\.$/, 'internal'],
  [/^This server was changed since you opened it \(by another admin or tab\)\./, 'serverChanged'],
  [/^This provider was changed since you opened it \(by another admin or tab\)\./, 'providerChanged'],
];

type Values = Record<string, string | number>;

/** The key and placeholder values for a known English message, else null. */
export function errorKeyOf(message: string): { key: string; values: Values } | null {
  for (const [pattern, key, names = []] of PATTERNS) {
    const m = pattern.exec(message);
    if (m) return { key, values: Object.fromEntries(names.map((n, i) => [n, m[i + 1] ?? ''])) };
  }
  return null;
}

const zhErrors = createTranslator({ locale: 'zh-CN', messages: zh, namespace: 'errors' });

/** `message` in `locale` (English text as it is; Chinese when we know the message). */
export function localizeErrorMessage(message: string, locale: Locale): string {
  if (locale !== 'zh-CN') return message;
  const known = errorKeyOf(message);
  if (!known) return message;
  // The key comes from the table above; its test checks every key is in the catalogs.
  const t = zhErrors as unknown as (key: string, values: Values) => string;
  return t(known.key, known.values);
}
