/** Isomorphic URL rules for untrusted text: links may be http(s) or mailto only; everything else is dropped. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function safeLinkUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const trimmed = url.trim();
  if (trimmed.startsWith('#')) return trimmed;
  try {
    const parsed = new URL(trimmed);
    return LINK_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null; // relative and malformed URLs are not followed from model output
  }
}

/** Remote images load only after a click; this names the host the click would contact. */
export function remoteImageHost(url: string | null | undefined): { href: string; host: string } | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return { href: parsed.href, host: parsed.host };
  } catch {
    return null;
  }
}
