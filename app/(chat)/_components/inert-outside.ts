/** What of a DOM element {@link outsideOf} reads (plain objects stand in for elements in its unit test). */
export type Box = { parentElement: Box | null; children: ArrayLike<Box> };

/**
 * What to make inert so that only `view` is left to the keyboard, the pointer and screen readers, without
 * moving it (an app's iframe moved in the DOM would reload): every sibling of `view` and of each of its
 * ancestors below `top` (the body), except those already `inert` (someone else's, left as they are).
 * `watch` are those ancestors but `top`: what is added to them later (a new message in the list) must be
 * made inert too, while what is added to the body itself is a portal, such as a dialog opened from the view.
 */
export function outsideOf<T extends Box>(
  view: T,
  top: T,
  inert: (el: T) => boolean,
): { elements: T[]; watch: T[] } {
  const elements: T[] = [];
  const watch: T[] = [];
  let node: T = view;
  while (node !== top && node.parentElement) {
    const parent = node.parentElement as T;
    for (const child of Array.from(parent.children) as T[])
      if (child !== node && !inert(child)) elements.push(child);
    if (parent !== top) watch.push(parent);
    node = parent;
  }
  return { elements, watch };
}

/**
 * Makes everything but `view` inert until the returned function is called, which clears the attribute on
 * exactly the elements this set (those it found and those added beside the view's ancestors meanwhile).
 */
export function inertOutside(view: HTMLElement): () => void {
  const set = new Set<HTMLElement>();
  const hold = (node: Node) => {
    if (!(node instanceof HTMLElement) || node.inert || node.contains(view)) return;
    node.inert = true;
    set.add(node);
  };
  const { elements, watch } = outsideOf<Element>(view, view.ownerDocument.body, (el) =>
    el.hasAttribute('inert'),
  );
  for (const el of elements) hold(el);
  const observer = new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(hold);
  });
  for (const el of watch) observer.observe(el, { childList: true });
  return () => {
    observer.disconnect();
    for (const el of set) el.inert = false;
  };
}
