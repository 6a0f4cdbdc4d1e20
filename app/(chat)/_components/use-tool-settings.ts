'use client';

import { type RefObject, useState } from 'react';
import type { ToolSettings } from '@/lib/schemas/chat';
import type { ToolChange } from '@/lib/tool-toggles';
import { conversationTransport, ToolSettingsSync } from './tool-settings-sync';

/** A conversation's tool settings as the composer and its Tools menu use them. */
export type ToolSettingsControl = {
  settings: ToolSettings;
  /** Applies a change (saved at once for an existing conversation); `servers`: every server the menu lists. */
  change: (change: ToolChange, servers?: readonly string[]) => void;
  /** Reads the stored settings again (another tab may have changed them). */
  refresh: () => void;
  /** The last save failed (and is not shown as made): the server's reason, or null when it gave none. */
  failure: { reason: string | null } | null;
  /** A save or a read of the settings is under way. */
  busy: boolean;
};

/**
 * The conversation's tool settings. Kept for a new chat's first message (which carries them), and saved
 * once its conversation exists; saved at once for an existing conversation, as the change alone
 * (tool-settings-sync), so a change made in another tab is not undone.
 */
export function useToolSettings(
  id: string,
  initialToolSettings: ToolSettings,
  createdRef: RefObject<boolean>,
) {
  const [toolSettings, setToolSettings] = useState<ToolSettings>(initialToolSettings);
  const [failure, setFailure] = useState<ToolSettingsControl['failure']>(null);
  const [busy, setBusy] = useState(false);
  const [sync] = useState(
    () =>
      new ToolSettingsSync(initialToolSettings, {
        transport: conversationTransport(id),
        saved: () => createdRef.current,
        onUpdate: (settings, failed, working) => {
          setToolSettings(settings);
          setFailure(failed);
          setBusy(working);
        },
      }),
  );

  // Stable, for effects that depend on them.
  const [actions] = useState(() => ({
    change: (change: ToolChange, servers?: readonly string[]) => sync.change(change, servers),
    refresh: () => sync.refresh(),
  }));
  const [firstMessage] = useState(() => ({
    /** The settings a new chat's first message carries. */
    settings: () => sync.forFirstMessage(),
    /** The conversation exists: switches made while its first answer was awaited are saved. */
    created: () => sync.created(),
  }));
  const toolControl: ToolSettingsControl = { settings: toolSettings, ...actions, failure, busy };
  return { toolControl, firstMessage };
}
