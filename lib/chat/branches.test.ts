import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathTo, rebuildTree } from '@/lib/chat/branches';

const counter = () => {
  let n = 0;
  return () => `n${++n}`;
};

test('a file without branches becomes one path, in order, ending at its last message', () => {
  const tree = rebuildTree([{}, {}, {}], undefined, counter());
  assert.deepEqual(
    tree.messages.map((m) => [m.id, m.parentId]),
    [
      ['n1', null],
      ['n2', 'n1'],
      ['n3', 'n2'],
    ],
  );
  assert.equal(tree.leafId, 'n3');
});

test('branches come back with new ids: siblings keep their parent, the selected leaf is kept', () => {
  // q1 → a1 → q2 → a2, and an edit of q2 (q2b → a2b); the file selected the old branch.
  const items = [
    { id: 'q1', parentId: null },
    { id: 'a1', parentId: 'q1' },
    { id: 'q2', parentId: 'a1' },
    { id: 'a2', parentId: 'q2' },
    { id: 'q2b', parentId: 'a1' },
    { id: 'a2b', parentId: 'q2b' },
  ];
  const tree = rebuildTree(items, 'a2', counter());
  assert.deepEqual(
    tree.messages.map((m) => [m.item.id, m.id, m.parentId]),
    [
      ['q1', 'n1', null],
      ['a1', 'n2', 'n1'],
      ['q2', 'n3', 'n2'],
      ['a2', 'n4', 'n3'],
      ['q2b', 'n5', 'n2'],
      ['a2b', 'n6', 'n5'],
    ],
  );
  assert.equal(tree.leafId, 'n4');
  assert.deepEqual(
    pathTo(tree.messages, 'n6').map((m) => m.item.id),
    ['q1', 'a1', 'q2b', 'a2b'],
  );
});

test('a parent that is unknown or comes later follows the message before; an unknown selection is ignored', () => {
  const tree = rebuildTree(
    [
      { id: 'x', parentId: 'later' },
      { id: 'later', parentId: 'nowhere' },
      { id: 'y', parentId: 'y' },
    ],
    'missing',
    counter(),
  );
  assert.deepEqual(
    tree.messages.map((m) => m.parentId),
    [null, 'n1', 'n2'],
  );
  assert.equal(tree.leafId, 'n3');
});

test('pathTo walks parents up to the root and stops at a cycle or an unknown leaf', () => {
  const nodes = [
    { id: 'a', parentId: null },
    { id: 'b', parentId: 'a' },
    { id: 'c', parentId: 'b' },
    { id: 'd', parentId: 'a' },
  ];
  assert.deepEqual(
    pathTo(nodes, 'c').map((n) => n.id),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(
    pathTo(nodes, 'd').map((n) => n.id),
    ['a', 'd'],
  );
  assert.deepEqual(pathTo(nodes, 'zz'), []);
  const cycle = [
    { id: 'p', parentId: 'q' },
    { id: 'q', parentId: 'p' },
  ];
  assert.deepEqual(
    pathTo(cycle, 'p').map((n) => n.id),
    ['q', 'p'],
  );
});
