import mermaid from 'mermaid';

/**
 * Mermaid, loaded only when a message shows a ```mermaid block (its own chunks, never in the chat page's
 * first-load JavaScript). `securityLevel: 'strict'`: labels are sanitized (DOMPurify), HTML in labels is
 * escaped, click callbacks and links are disabled. The SVG it returns is shown in a sandboxed iframe
 * (mermaid-block.tsx), never in the page.
 */
export type Diagram = { svg: string; width: number; height: number };

let queue: Promise<unknown> = Promise.resolve();
let count = 0;

const MAX_SOURCE = 50_000;

async function draw(source: string, dark: boolean): Promise<Diagram> {
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    suppressErrorRendering: true,
    theme: dark ? 'dark' : 'default',
    maxTextSize: MAX_SOURCE,
    maxEdges: 1000,
  });
  // Throws with mermaid's own message (line and what it expected) on a syntax error.
  await mermaid.parse(source);
  count += 1;
  const { svg } = await mermaid.render(`mcp-chat-mermaid-${count}`, source);
  const box = /viewBox="\s*[-\d.e]+[\s,]+[-\d.e]+[\s,]+([\d.e]+)[\s,]+([\d.e]+)\s*"/.exec(svg);
  const width = Number(box?.[1]);
  const height = Number(box?.[2]);
  return {
    svg,
    width: Number.isFinite(width) && width > 0 ? width : 600,
    height: Number.isFinite(height) && height > 0 ? height : 400,
  };
}

/** Draws one diagram at a time (mermaid keeps global state while rendering). */
export function renderMermaid(source: string, dark: boolean): Promise<Diagram> {
  const run = () => draw(source, dark);
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
