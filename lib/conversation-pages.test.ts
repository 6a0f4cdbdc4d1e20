import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendPage, type ConversationPage, mergeFirstPage } from '@/lib/conversation-pages';

type Row = { id: string; title: string; updatedAt: string };
const row = (id: string, minute: number): Row => ({
  id,
  title: id,
  updatedAt: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
});
const ids = (p: ConversationPage<Row>) => p.items.map((i) => i.id);

// a9 is newest … a1 oldest; pages of 3.
const all = Array.from({ length: 9 }, (_, i) => row(`a${i + 1}`, i + 1)).reverse();
const page = (from: number, cursor: string | null) => ({
  items: all.slice(from, from + 3),
  nextCursor: cursor,
});

test('appendPage adds the next page without duplicates', () => {
  const list = page(0, 'c1');
  const next = { items: [all[2]!, all[3]!, all[3]!, all[4]!], nextCursor: 'c2' };
  const merged = appendPage(list, 'c1', next);
  assert.deepEqual(ids(merged), ['a9', 'a8', 'a7', 'a6', 'a5']);
  assert.equal(merged.nextCursor, 'c2');
});

test('appendPage drops a page fetched for a cursor that is no longer the end', () => {
  const list = page(0, 'c1-new');
  assert.equal(appendPage(list, 'c1', page(3, 'c2')), list);
});

test('mergeFirstPage puts new and updated conversations in front and keeps loaded pages', () => {
  const loaded = { items: all.slice(0, 6), nextCursor: 'c2' };
  const bumped = { ...all[4]!, updatedAt: row('x', 100).updatedAt }; // a5 got a new message
  const first = { items: [row('n1', 101), bumped, all[0]!], nextCursor: 'p1' };
  const merged = mergeFirstPage(loaded, first);
  assert.deepEqual(ids(merged), ['n1', 'a5', 'a9', 'a8', 'a7', 'a6', 'a4']);
  assert.equal(new Set(ids(merged)).size, merged.items.length);
  assert.equal(merged.nextCursor, 'c2');
});

test('mergeFirstPage drops rows deleted inside page 1 and takes page 1 cursor when nothing older is loaded', () => {
  const loaded = { items: all.slice(0, 3), nextCursor: 'c1' };
  const first = { items: [all[0]!, all[2]!, all[3]!], nextCursor: 'p1' }; // a8 was deleted
  const merged = mergeFirstPage(loaded, first);
  assert.deepEqual(ids(merged), ['a9', 'a7', 'a6']);
  assert.equal(merged.nextCursor, 'p1');
});

test('mergeFirstPage trusts a page 1 that holds everything', () => {
  const loaded = { items: all.slice(0, 6), nextCursor: 'c2' };
  const first = { items: [all[0]!, all[1]!], nextCursor: null };
  assert.deepEqual(mergeFirstPage(loaded, first), first);
  assert.deepEqual(mergeFirstPage(loaded, { items: [], nextCursor: null }).items, []);
});

test('ties on updatedAt are ordered by id, like the server cursor', () => {
  const t = row('x', 50).updatedAt;
  const loaded = {
    items: [
      { id: 'b', title: 'b', updatedAt: t },
      { id: 'a', title: 'a', updatedAt: t },
    ],
    nextCursor: 'c',
  };
  const first = { items: [{ id: 'b', title: 'b', updatedAt: t }], nextCursor: 'p1' };
  assert.deepEqual(ids(mergeFirstPage(loaded, first)), ['b', 'a']);
});
