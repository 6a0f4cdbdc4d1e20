'use client';

import { type RefObject, useRef, useState } from 'react';
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
 * The conversation's tool settings; `toolSettingsRef` is always the latest (read when a request is built).
 * Kept for a new chat's first message; saved at once for an existing conversation, as the change alone
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
  const toolSettingsRef = useRef(toolSettings);
  const [sync] = useState(
    () =>
      new ToolSettingsSync(initialToolSettings, {
        transport: conversationTransport(id),
        saved: () => createdRef.current,
        onUpdate: (settings, failed, working) => {
          toolSettingsRef.current = settings;
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
  const toolControl: ToolSettingsControl = { settings: toolSettings, ...actions, failure, busy };
  return { toolSettingsRef, toolControl };
}
