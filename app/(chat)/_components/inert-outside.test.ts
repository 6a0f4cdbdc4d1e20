import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Box, outsideOf } from './inert-outside';

type Fake = Box & { name: string; children: Fake[]; inert: boolean };

/** A tree of fake elements: `[name, children]`, `name!` already inert. */
function tree(name: string, kids: Fake[] = []): Fake {
  const node: Fake = {
    name: name.replace('!', ''),
    parentElement: null,
    children: kids,
    inert: name.endsWith('!'),
  };
  for (const kid of kids) kid.parentElement = node;
  return node;
}
const isInert = (n: Fake) => n.inert;
const names = (list: Fake[]) => list.map((n) => n.name);

test('everything beside the view and its ancestors, up to the body, is made inert; nothing inside them', () => {
  const view = tree('view', [tree('button'), tree('frame')]);
  const body = tree('body', [
    tree('announcer'),
    tree('layout', [
      tree('sidebar', [tree('link')]),
      tree('main', [
        tree('header'),
        tree('list', [tree('m1'), tree('m2', [tree('card', [view, tree('text')])])]),
        tree('composer'),
      ]),
    ]),
    tree('portal'),
  ]);
  tree('html', [tree('head'), body]);
  const { elements, watch } = outsideOf(view, body, isInert);
  assert.deepEqual(names(elements), ['text', 'm1', 'header', 'composer', 'sidebar', 'announcer', 'portal']);
  // What is added to the body later (a dialog's portal) is not watched; what comes beside the rest is.
  assert.deepEqual(names(watch), ['card', 'm2', 'list', 'main', 'layout']);
});

test('an element someone else made inert is left out (so its inert is not cleared on exit)', () => {
  const view = tree('view');
  const body = tree('body', [tree('drawer!'), tree('main', [tree('notice!'), view, tree('composer')])]);
  const { elements } = outsideOf(view, body, isInert);
  assert.deepEqual(names(elements), ['composer']);
});

test('a view directly in the body, or detached, has nothing around it to watch', () => {
  const view = tree('view');
  const body = tree('body', [tree('a'), view]);
  assert.deepEqual(outsideOf(view, body, isInert), { elements: [body.children[0]], watch: [] });
  const alone = tree('alone');
  assert.deepEqual(outsideOf(alone, body, isInert), { elements: [], watch: [] });
});
