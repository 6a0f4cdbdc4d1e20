'use client';

import { useFormatter, useTranslations } from 'next-intl';
import type { MessageMetadata } from '@/lib/schemas/chat';
import { formatCost } from '@/lib/usage';

/** An answer's details: the model, its tokens and (when an admin priced the model) its cost. */
export function MessageDetails({ metadata }: { metadata: MessageMetadata | undefined }) {
  const t = useTranslations('usage');
  const format = useFormatter();
  const usage = metadata?.usage;
  const row = 'flex gap-2';
  return (
    <dl data-message-details className="mt-1 grid gap-0.5 text-xs text-zinc-500">
      {metadata?.model && (
        <div className={row}>
          <dt className="font-medium">{t('model')}</dt>
          <dd className="font-mono">{metadata.model}</dd>
        </div>
      )}
      {usage ? (
        <div className={row}>
          <dt className="font-medium">{t('tokens')}</dt>
          <dd data-tokens>
            {t('tokensValue', {
              input: format.number(usage.inputTokens ?? 0),
              output: format.number(usage.outputTokens ?? 0),
              total: format.number(usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)),
            })}
          </dd>
        </div>
      ) : (
        <div>{t('noTokens')}</div>
      )}
      {metadata?.cost !== undefined && (
        <div className={row}>
          <dt className="font-medium">{t('cost')}</dt>
          <dd data-cost>{formatCost(metadata.cost)}</dd>
        </div>
      )}
    </dl>
  );
}
