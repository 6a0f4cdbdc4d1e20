'use client';

import { type RefObject, useRef, useState } from 'react';
import type { ToolSettings } from '@/lib/schemas/chat';

/** The conversation's tool settings; `toolSettingsRef` is always the latest (read when a request is built). */
export function useToolSettings(
  id: string,
  initialToolSettings: ToolSettings,
  createdRef: RefObject<boolean>,
) {
  const [toolSettings, setToolSettings] = useState<ToolSettings>(initialToolSettings);
  const toolSettingsRef = useRef(toolSettings);
  toolSettingsRef.current = toolSettings;

  /**
   * Tool settings: kept for a new chat's first message, saved at once for an existing conversation —
   * only the fields that changed, so a stored limit above a since-lowered admin limit doesn't fail every toggle.
   */
  function changeToolSettings(next: ToolSettings) {
    const previous = toolSettingsRef.current;
    setToolSettings(next);
    if (!createdRef.current) return;
    const changed = Object.fromEntries(
      Object.entries(next).filter(
        ([key, value]) => JSON.stringify(value) !== JSON.stringify(previous[key as keyof ToolSettings]),
      ),
    );
    void fetch(`/api/conversations/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(changed),
    });
  }

  return { toolSettings, toolSettingsRef, changeToolSettings };
}
