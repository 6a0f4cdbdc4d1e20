'use client';

import { useState } from 'react';
import { remoteImageHost } from '@/lib/safe-url';

/** Images from model output never load on their own: a placeholder names the domain, a click loads it. */
export function RemoteImage({ src, alt }: { src?: string; alt?: string }) {
  const [show, setShow] = useState(false);
  const target = remoteImageHost(src);
  if (!target) return <span className="text-zinc-500">[image removed{alt ? `: ${alt}` : ''}]</span>;
  if (show) {
    // biome-ignore lint/performance/noImgElement: an arbitrary remote image the user chose to load
    return <img src={target.href} alt={alt ?? ''} referrerPolicy="no-referrer" className="max-w-full rounded" />;
  }
  return (
    <button
      type="button"
      data-remote-image={target.host}
      onClick={() => setShow(true)}
      className="inline-flex items-center gap-1 rounded border border-dashed border-zinc-400 px-2 py-1 text-xs text-zinc-600 dark:text-zinc-300"
    >
      Load image{alt ? ` "${alt}"` : ''} from {target.host}
    </button>
  );
}
