import * as z from '@/lib/zod';

// MCP Apps (the `io.modelcontextprotocol/ui` extension): what an app's iframe may load and use. Pure
// functions, shared by the resource endpoint (which cleans what a server declares) and the sandbox
// proxy route (which turns it into the Content-Security-Policy of the app's document).

/** The extension's id, as advertised in the client capabilities' `extensions`. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML document (`text/html;profile=mcp-app`). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The permissions an app may ask for (MCP Apps `McpUiResourcePermissions`). */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export type AppPermission = (typeof APP_PERMISSIONS)[number];
export const AppPermissionSchema = z.enum(APP_PERMISSIONS);

/** The iframe `allow` feature of each permission (Permissions Policy names). */
const FEATURE: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

export type AppCsp = {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
};
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const MAX_DOMAINS = 20;

/**
 * One origin a server may declare: https (or wss) with an optional leading `*.` wildcard (over a domain
 * of two labels or more: `*.example.com`, not `*.com`) and port, or
 * plain http/ws on this machine's loopback names. Anything else — `*`, schemes like `data:`, keywords
 * like `'unsafe-eval'`, paths, spaces or `;` that would add directives — is dropped.
 */
export function cleanOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 253) return null;
  const v = value.trim().toLowerCase().replace(/\/$/, '');
  const label = '[a-z0-9]([a-z0-9-]*[a-z0-9])?';
  // A wildcard covers the subdomains of a domain, never of a whole top-level domain (`*.com`).
  const host = String.raw`(\*\.${label}(\.${label})+|${label}(\.${label})*)`;
  const port = String.raw`(:\d{1,5})?`;
  if (new RegExp(`^(https|wss)://${host}${port}$`).test(v)) return v;
  if (new RegExp(`^(http|ws)://(localhost|127\\.0\\.0\\.1)${port}$`).test(v)) return v;
  return null;
}

/** A declared `_meta.ui.csp` reduced to origins that are safe to put in a policy (unknown keys dropped). */
export function cleanCsp(raw: unknown): AppCsp {
  const source = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const list = (v: unknown) =>
    Array.isArray(v)
      ? [...new Set(v.map(cleanOrigin).filter((o): o is string => o !== null))].slice(0, MAX_DOMAINS)
      : [];
  return Object.fromEntries(CSP_KEYS.map((k) => [k, list(source[k])])) as AppCsp;
}

/** The permissions an app gets: those it declares that the admin allows for its server. */
export function grantedPermissions(declared: unknown, allowed: readonly AppPermission[]): AppPermission[] {
  const asked = declared && typeof declared === 'object' ? Object.keys(declared) : [];
  return APP_PERMISSIONS.filter((p) => asked.includes(p) && allowed.includes(p));
}

/** `McpUiResourcePermissions` of a list (`{ camera: {} }`). */
export const permissionsObject = (granted: readonly AppPermission[]) =>
  Object.fromEntries(granted.map((p) => [p, {}])) as Partial<Record<AppPermission, object>>;

/**
 * The iframe `allow` attribute of granted permissions (`camera *; clipboard-write *`); '' for none. `*`
 * because the framed document has an opaque origin, which the default `'src'` allowlist may not match;
 * the frame holds only the app, and a feature is still never more than this page itself has.
 */
export const allowAttribute = (granted: readonly AppPermission[]) =>
  granted.map((p) => `${FEATURE[p]} *`).join('; ');

/**
 * The Content-Security-Policy of the sandbox proxy page, inherited by the app's `srcdoc` document: inline
 * script and style (an app is one HTML document), images and fonts from data: URLs, anything else only
 * from the origins the resource declared — no network at all when it declared none. The `sandbox`
 * directive keeps the page on an opaque origin even if it were opened on its own; only our pages may
 * frame it.
 */
export function appContentSecurityPolicy(csp: AppCsp): string {
  const list = (origins: string[], ...fixed: string[]) => [...fixed, ...origins].join(' ') || "'none'";
  const res = csp.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${list(res, "'unsafe-inline'")}`,
    `style-src ${list(res, "'unsafe-inline'")}`,
    `img-src ${list(res, 'data:', 'blob:')}`,
    `font-src ${list(res, 'data:')}`,
    `media-src ${list(res, 'data:', 'blob:')}`,
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    `base-uri ${list(csp.baseUriDomains)}`,
    "form-action 'none'",
    "object-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "frame-ancestors 'self'",
    'sandbox allow-scripts allow-forms',
  ].join('; ');
}

/** Where a tool's app lives (`_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`), if it has one. */
export function toolAppUri(tool: { _meta?: Record<string, unknown> | undefined }): string | undefined {
  const meta = tool._meta ?? {};
  const ui = meta.ui && typeof meta.ui === 'object' ? (meta.ui as Record<string, unknown>) : {};
  const uri = ui.resourceUri ?? meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= 2048 ? uri : undefined;
}

/** Who may see a tool (`_meta.ui.visibility`): both the model and the app unless it says otherwise. */
export function toolVisibility(tool: { _meta?: Record<string, unknown> | undefined }): {
  model: boolean;
  app: boolean;
} {
  const ui = tool._meta?.ui;
  const v = ui && typeof ui === 'object' ? (ui as Record<string, unknown>).visibility : undefined;
  if (!Array.isArray(v)) return { model: true, app: true };
  return { model: v.includes('model'), app: v.includes('app') };
}
