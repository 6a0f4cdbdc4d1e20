'use client';

import type { ChatPart } from '@/lib/schemas/chat';
import { ElicitationCard } from './elicitation-card';
import { SamplingCard } from './sampling-card';

export type RequestPart = Extract<ChatPart, { type: 'data-elicitation' | 'data-sampling' }>;

export const isRequestPart = (p: ChatPart): p is RequestPart =>
  p.type === 'data-elicitation' || p.type === 'data-sampling';

/** One request a server made during a tool call: a question for the user, or a use of the model. */
export function TurnRequest({ part, active }: { part: RequestPart; active: boolean }) {
  const id = part.id ?? '';
  return part.type === 'data-elicitation' ? (
    <ElicitationCard id={id} data={part.data} active={active} />
  ) : (
    <SamplingCard id={id} data={part.data} active={active} />
  );
}
