/**
 * Whether a key belongs to an input method (typing Chinese or Japanese): the Enter that picks a candidate,
 * the Escape that closes the candidates, the arrows that move among them. Such a key is not the app's: it
 * must not send, save, cancel an edit or close anything. Chromium and Firefox mark it `isComposing`; Safari
 * delivers the Enter that ends a composition after the composition has ended (`isComposing` false), but,
 * like the others, with keyCode 229 ("processed by the input method").
 */
export function isInputMethodKey(e: KeyboardEvent | { nativeEvent: KeyboardEvent }): boolean {
  const key = 'nativeEvent' in e ? e.nativeEvent : e;
  return key.isComposing || key.keyCode === 229;
}
