'use client';

import { useCallback, useRef, useState } from 'react';
import type { ModelInfo } from './chat';
import { errorBodyOf } from './error-notice';

/** Whether an error is the server refusing the chosen model (`fields.model`: removed, or not this user's). */
const refusesModel = (raw: string) => Boolean(errorBodyOf(raw)?.fields?.model);

/**
 * The "Model" picker's list and choice. When the server refuses the chosen model (an admin removed it, or
 * took it from this user, since the page loaded), `recheck` fetches the list again and the choice falls
 * back to a model still offered, so Retry and the next message work without a reload.
 */
export function useModelChoice(initialModels: ModelInfo[], initialModel: string | null) {
  const [models, setModels] = useState(initialModels);
  const [model, setModel] = useState(initialModel);
  const modelRef = useRef(initialModel);
  modelRef.current = model;

  const recheck = useCallback((errorText: string) => {
    if (!refusesModel(errorText)) return;
    void fetch('/api/models')
      .then((res) => (res.ok ? (res.json() as Promise<{ items: ModelInfo[] }>) : null))
      .then((body) => {
        if (!body) return;
        setModels(body.items);
        setModel((current) =>
          body.items.some((m) => m.id === current) ? current : (body.items[0]?.id ?? null),
        );
      })
      .catch(() => {});
  }, []);

  return { models, model, setModel, modelRef, recheck };
}
