'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { CodeBlock } from './code-block';
import type { Diagram } from './mermaid-render';

type State =
  | { status: 'idle' }
  | { status: 'drawing' }
  | { status: 'done'; diagram: Diagram }
  | { status: 'failed'; message: string };

/**
 * The document shown in the diagram's iframe: the SVG only. The iframe is `sandbox=""`: an opaque origin
 * with no scripts, forms, popups or navigation, so nothing in a diagram can reach the page.
 */
const frameDocument = (svg: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><style>html,body{margin:0;padding:0;background:transparent;overflow:hidden}svg{display:block;width:100%;height:auto;max-width:100%}</style></head><body>${svg}</body></html>`;

const errorText = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
};

/**
 * A ```mermaid block: its source while it streams in (`complete` false), then the diagram drawn by Mermaid
 * (loaded on first use) in a sandboxed iframe, or the source with Mermaid's error when it cannot be drawn.
 * The server always renders the source; the diagram is drawn in the browser.
 */
export function MermaidBlock({ code, complete }: { code: string; complete: boolean }) {
  const t = useTranslations('markdown');
  const [state, setState] = useState<State>({ status: 'idle' });

  useEffect(() => {
    if (!complete || !code.trim()) {
      setState({ status: 'idle' });
      return;
    }
    let live = true;
    setState({ status: 'drawing' });
    const dark = document.documentElement.classList.contains('dark');
    import('./mermaid-render')
      .then(({ renderMermaid }) => renderMermaid(code, dark))
      .then(
        (diagram) => live && setState({ status: 'done', diagram }),
        (error: unknown) => live && setState({ status: 'failed', message: errorText(error) }),
      );
    return () => {
      live = false;
    };
  }, [code, complete]);

  if (state.status === 'done') {
    const { svg, width, height } = state.diagram;
    return (
      <CodeBlock language="mermaid" code={code}>
        <div className="mermaid-diagram">
          <iframe
            sandbox=""
            title={t('diagram')}
            srcDoc={frameDocument(svg)}
            referrerPolicy="no-referrer"
            style={{ maxWidth: `${width}px`, aspectRatio: `${width} / ${height}` }}
          />
        </div>
      </CodeBlock>
    );
  }
  const note =
    state.status === 'failed' ? (
      <p className="code-block-note" role="note" data-diagram-error="">
        {t('diagramError', { message: state.message })}
      </p>
    ) : state.status === 'drawing' ? (
      <p className="code-block-note" role="status">
        {t('diagramDrawing')}
      </p>
    ) : null;
  return (
    <CodeBlock language="mermaid" code={code} note={note}>
      <pre>
        <code className="language-mermaid">{code}</code>
      </pre>
    </CodeBlock>
  );
}
