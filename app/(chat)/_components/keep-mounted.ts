'use client';

import { createContext } from 'react';

/**
 * Keeps a message of the windowed list mounted however far the list scrolls from it, until the returned
 * function is called: an MCP App full screen, whose iframe would lose the app's state if its message were
 * unmounted (new messages arriving behind it scroll the list to its end). Outside a list: nothing to keep.
 */
export const KeepMountedContext = createContext<(messageId: string) => () => void>(() => () => {});
