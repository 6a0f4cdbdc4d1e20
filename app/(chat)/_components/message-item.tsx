'use client';

import type { UIMessage } from 'ai';
import { memo } from 'react';
import type { MessageMetadata } from '@/lib/schemas/chat';
import { Markdown } from './markdown';

export type ChatMessage = UIMessage<MessageMetadata>;

type Props = { message: ChatMessage; streaming: boolean; interrupted: boolean };

/** One message: the user's as plain text, the assistant's as safe Markdown, with an "interrupted" mark. */
export const MessageItem = memo(function MessageItem({ message, streaming, interrupted }: Props) {
  const isUser = message.role === 'user';
  const text = message.parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
  return (
    <div
      data-role={message.role}
      data-message-id={message.id}
      className={isUser ? 'flex justify-end' : 'flex justify-start'}
    >
      <div
        className={
          isUser
            ? 'max-w-[85%] whitespace-pre-wrap rounded-2xl bg-zinc-100 px-4 py-2 text-sm dark:bg-zinc-800'
            : 'w-full max-w-full text-sm'
        }
      >
        {isUser ? text : <Markdown text={text} />}
        {!isUser && streaming && !text && <span className="animate-pulse text-zinc-400">Thinking…</span>}
        {!isUser && interrupted && (
          <p data-interrupted className="mt-2 text-xs font-medium text-amber-600 dark:text-amber-400">
            ⏹ Interrupted — this answer was cut short.
          </p>
        )}
      </div>
    </div>
  );
});
