'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useState } from 'react';
import { ResultAttachment } from './result-attachments';
import { ResultImage } from './result-image';
import { StructuredView } from './structured-view';
import { resultBlocks, structuredOf } from './tool-result';

const PRE = 'whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-950';

function TextResult({ text }: { text: string }) {
  const t = useTranslations('toolCall');
  const format = useFormatter();
  const [open, setOpen] = useState(false);
  const long = text.length > 600;
  return (
    <>
      <pre className={`${PRE} ${long && !open ? 'max-h-40 overflow-hidden' : ''}`}>{text}</pre>
      {long && (
        <button
          type="button"
          onClick={() => setOpen((o) => !o)}
          className="text-xs text-blue-600 hover:underline"
        >
          {open ? t('showLess') : t('showAll', { count: format.number(text.length) })}
        </button>
      )}
    </>
  );
}

/**
 * A finished call's result as the user sees it: its text, images (full size on click), audio players,
 * links and attachments, and `structuredContent` as a table or tree (its text copy then collapsed).
 * Items with `audience: ["assistant"]` are not shown (resultBlocks leaves them out).
 */
export function ToolOutput({ output }: { output: unknown }) {
  const t = useTranslations('toolCall');
  const blocks = resultBlocks(output, {
    imageAlt: t('imageAlt'),
    unshown: (kind) => t('unshown', { kind }),
  });
  const structured = structuredOf(output);
  const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
  const rich = blocks.filter((b) => b.kind !== 'text');
  return (
    <div data-tool-output className="space-y-2">
      {structured ? (
        <>
          <StructuredView value={structured} />
          {text && (
            <details>
              <summary className="cursor-pointer text-xs text-zinc-500">{t('textResult')}</summary>
              <pre className={`mt-1 ${PRE}`}>{text}</pre>
            </details>
          )}
        </>
      ) : (
        (text || !rich.length) && <TextResult text={text} />
      )}
      {rich.map((b, i) =>
        b.kind === 'image' ? (
          <ResultImage key={i} src={b.src} alt={b.alt} />
        ) : (
          <ResultAttachment key={i} block={b} />
        ),
      )}
    </div>
  );
}
