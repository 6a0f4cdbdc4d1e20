'use client';

import * as Popover from '@radix-ui/react-popover';
import { useFormatter, useTranslations } from 'next-intl';
import { useState } from 'react';
import { formatCost, type UsageTotals } from '@/lib/usage';

type State = { kind: 'idle' | 'loading' | 'failed' } | { kind: 'done'; usage: UsageTotals };

/**
 * The header's "Usage" button and its popover (Radix Popover, "Usage in this conversation"): the
 * conversation's token totals (and cost), read each time it opens. Escape or a click outside closes it.
 */
export function ConversationUsage({ conversationId }: { conversationId: string }) {
  const t = useTranslations('usage');
  const format = useFormatter();
  const [state, setState] = useState<State>({ kind: 'idle' });

  async function load() {
    setState({ kind: 'loading' });
    try {
      const res = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/summary`, {
        cache: 'no-store',
      });
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as { usage: UsageTotals };
      setState({ kind: 'done', usage: body.usage });
    } catch {
      setState({ kind: 'failed' });
    }
  }

  return (
    <Popover.Root
      onOpenChange={(open) => {
        if (open) void load();
      }}
    >
      <Popover.Trigger className="rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 data-[state=open]:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800">
        {t('conversation')}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label={t('conversationTitle')}
          align="end"
          sideOffset={4}
          collisionPadding={8}
          className="z-30 w-64 max-w-[calc(100vw-1rem)] rounded-md border border-zinc-200 bg-white p-3 text-xs text-zinc-900 shadow-lg focus:outline-none dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <p className="mb-1 font-medium">{t('conversationTitle')}</p>
          {state.kind === 'loading' && <p className="text-zinc-500">{t('loading')}</p>}
          {state.kind === 'failed' && <p role="alert">{t('failed')}</p>}
          {state.kind === 'done' && (
            <dl data-conversation-usage className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
              <dt>{t('answers')}</dt>
              <dd>{format.number(state.usage.answers)}</dd>
              <dt>{t('input')}</dt>
              <dd>{format.number(state.usage.inputTokens)}</dd>
              <dt>{t('output')}</dt>
              <dd>{format.number(state.usage.outputTokens)}</dd>
              <dt>{t('total')}</dt>
              <dd data-total-tokens>{format.number(state.usage.totalTokens)}</dd>
              {state.usage.cost !== undefined && (
                <>
                  <dt>{t('cost')}</dt>
                  <dd data-total-cost>{formatCost(state.usage.cost)}</dd>
                </>
              )}
            </dl>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
