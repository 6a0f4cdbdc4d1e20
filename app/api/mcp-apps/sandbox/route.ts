import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';
import { appContentSecurityPolicy, cleanCsp } from '@/lib/mcp-apps/sandbox-policy';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The host's sandbox proxy for MCP Apps (the extension's "sandbox proxy" role). The chat page frames it
 * with `sandbox="allow-scripts allow-forms"` (no allow-same-origin: an opaque origin, so no access to our
 * cookies, storage or DOM); the page tells the host it is ready, receives the app's HTML, and renders it
 * in an inner iframe (`srcdoc`, same sandbox) that inherits this response's Content-Security-Policy —
 * built from the origins the resource declared (`?csp=`, cleaned again here), nothing else. It then only
 * relays JSON-RPC messages between the host (its parent) and the app (its child).
 */
const PROXY_SCRIPT = `(() => {
  const host = window.parent;
  if (host === window) return;
  const FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  let inner = null;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === host) {
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner) return;
        const params = data.params || {};
        const permissions = params.permissions && typeof params.permissions === 'object' ? params.permissions : {};
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts allow-forms');
        inner.setAttribute('allow', Object.keys(permissions).filter((k) => FEATURES[k]).map((k) => FEATURES[k] + ' *').join('; '));
        inner.setAttribute('title', 'app');
        inner.srcdoc = typeof params.html === 'string' ? params.html : '';
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
    } else if (inner && event.source === inner.contentWindow) {
      host.postMessage(data, '*');
    }
  });
  host.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
})();`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script>${PROXY_SCRIPT}</script></body></html>`;

function declaredCsp(param: string | null): unknown {
  if (!param || param.length > 16_384) return undefined;
  try {
    return JSON.parse(param);
  } catch {
    return undefined;
  }
}

/** Signed-in users only (the chat page's frame request carries the session cookie; nothing else needs it). */
export const GET = route(async (req) => {
  await requireUser(req);
  const csp = cleanCsp(declaredCsp(new URL(req.url).searchParams.get('csp')));
  return new Response(PAGE, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': appContentSecurityPolicy(csp),
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    },
  });
});
