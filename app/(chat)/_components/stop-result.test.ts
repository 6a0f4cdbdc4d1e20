import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '@/lib/schemas/chat';
import { afterStop } from './stop-result';

const msg = (id: string, role: 'user' | 'assistant', metadata?: ChatMessage['metadata']): ChatMessage => ({
  id,
  role,
  parts: role === 'user' || !metadata?.interrupted ? [{ type: 'text', text: id }] : [],
  ...(metadata ? { metadata } : {}),
});
const shown = [msg('q1', 'user'), msg('a1', 'assistant'), msg('q2', 'user')];

test('a Stop while the answer streamed shows it as stored: cut and marked, or complete and not', () => {
  const streaming = [...shown, msg('a2', 'assistant')];
  const cut = msg('a2', 'assistant', { interrupted: true });
  assert.deepEqual(afterStop(streaming, { stopped: true, answer: cut }), {
    stored: cut,
    shown: 'a2',
    cut: true,
  });
  const whole = msg('a2', 'assistant');
  assert.deepEqual(afterStop(streaming, { stopped: false, answer: whole }), {
    stored: whole,
    shown: 'a2',
    cut: false,
  });
  // Unknown (the request failed): as the tab stopped it; the server said it cut nothing: not marked.
  assert.deepEqual(afterStop(streaming, null), { stored: null, shown: 'a2', cut: true });
  assert.deepEqual(afterStop(streaming, { stopped: false, answer: null }), {
    stored: null,
    shown: 'a2',
    cut: false,
  });
  // Stopped, its answer not stored in time (no answer sent): the tab keeps its own text, marked.
  assert.deepEqual(afterStop(streaming, { stopped: true, answer: null }), {
    stored: null,
    shown: 'a2',
    cut: true,
  });
});

test('a Stop before any part of the answer reached the tab shows the stored answer after the question', () => {
  const stopped = msg('a2', 'assistant', { interrupted: true });
  assert.deepEqual(afterStop(shown, { stopped: true, answer: stopped }), {
    stored: stopped,
    shown: 'a2',
    cut: true,
  });
  // The last stored answer is one the tab shows already (its question was not stored): nothing new.
  assert.deepEqual(afterStop(shown, { stopped: false, answer: msg('a1', 'assistant') }), {
    stored: null,
    shown: undefined,
    cut: false,
  });
  // A failed answer is shown as stored, not marked stopped (it has its error notice).
  const failed = msg('f2', 'assistant', { interrupted: true, error: 'The model is unavailable.' });
  assert.deepEqual(afterStop(shown, { stopped: false, answer: failed }), {
    stored: failed,
    shown: 'f2',
    cut: false,
  });
});
