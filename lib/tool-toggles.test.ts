import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolToggle } from '@/lib/schemas/chat';
import { applyToggles, applyToolChange, mergeToolChanges, type ToolSelection } from '@/lib/tool-toggles';

const ALL = ['a', 'b'];
const none: ToolSelection = { servers: null, disabledTools: [] };

test('a server off makes the list of the others; on again collapses it to null (every server)', () => {
  const off = applyToggles(none, [{ server: 'a', on: false }], ALL);
  assert.deepEqual(off, { servers: ['b'], disabledTools: [] });
  assert.deepEqual(applyToggles(off, [{ server: 'a', on: true }], ALL), none);
  // A server the list of all does not name (not known here yet) is switched all the same.
  assert.deepEqual(applyToggles(none, [{ server: 'c', on: false }], ALL), {
    servers: ['a', 'b'],
    disabledTools: [],
  });
});

test('a tool off is listed once; on removes it and switches its server on', () => {
  const off = applyToggles(
    none,
    [
      { server: 'a', tool: 'x', on: false },
      { server: 'a', tool: 'x', on: false },
    ],
    ALL,
  );
  assert.deepEqual(off, { servers: null, disabledTools: ['a/x'] });
  const serverOff = applyToggles(off, [{ server: 'a', on: false }], ALL);
  assert.deepEqual(applyToggles(serverOff, [{ server: 'a', tool: 'x', on: true }], ALL), none);
});

test("two tabs' switches of different tools applied to what is stored keep both", () => {
  const first = applyToggles(none, [{ server: 'a', tool: 'x', on: false }], ALL);
  const both = applyToggles(first, [{ server: 'b', tool: 'y', on: false }], ALL);
  assert.deepEqual(both.disabledTools, ['a/x', 'b/y']);
});

test('merged changes give what applying them one after the other gives', () => {
  const sequences: ToolToggle[][] = [
    [
      { server: 'a', on: false },
      { server: 'a', tool: 'x', on: true },
      { server: 'a', on: false },
    ],
    [
      { server: 'a', tool: 'x', on: true },
      { server: 'a', on: false },
      { server: 'a', tool: 'x', on: true },
    ],
    [
      { server: 'a', tool: 'x', on: false },
      { server: 'b', on: false },
      { server: 'a', tool: 'x', on: true },
    ],
  ];
  const start: ToolSelection = { servers: ['a'], disabledTools: ['a/x'] };
  for (const seq of sequences) {
    const oneByOne = seq.reduce((s, t) => applyToggles(s, [t], ALL), start);
    const merged = seq.reduce<ReturnType<typeof mergeToolChanges> | null>(
      (m, t) => mergeToolChanges(m, { toggles: [t] }),
      null,
    );
    assert.deepEqual(applyToggles(start, merged?.toggles ?? [], ALL), oneByOne, JSON.stringify(seq));
  }
  // Fields: the later value wins; the earlier change's other fields stay.
  assert.deepEqual(mergeToolChanges({ toolMode: 'off', maxSteps: 3 }, { toolMode: 'auto' }), {
    toolMode: 'auto',
    maxSteps: 3,
  });
});

test('a change applied to settings that leave servers and tools out (defaults: all, none off)', () => {
  assert.deepEqual(
    applyToolChange({ toolMode: 'auto' }, { toggles: [{ server: 'a', tool: 'x', on: false }] }, ALL),
    {
      toolMode: 'auto',
      servers: null,
      disabledTools: ['a/x'],
    },
  );
  assert.deepEqual(applyToolChange({ maxSteps: 2 }, { maxSteps: null }, ALL), { maxSteps: null });
});
