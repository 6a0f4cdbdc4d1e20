'use client';

import { createContext } from 'react';

/** Context an MCP App shared for the model (`ui/update-model-context`), sent with the next message. */
export type AppContextNote = { server: string; tool: string; text: string };

/** What the chat lends the MCP Apps in its tool cards (none on pages without a live conversation). */
export type AppHost = {
  conversationId: string;
  /** An app's follow-up message (`ui/message`), sent as the user's, marked as from the app; false when it cannot be sent now. */
  sendFromApp: (note: AppContextNote) => boolean;
  /** An app's latest context for the model, replacing its earlier one; shown until the next message takes it. */
  shareContext: (toolCallId: string, note: AppContextNote) => void;
};

export const AppHostContext = createContext<AppHost | null>(null);
