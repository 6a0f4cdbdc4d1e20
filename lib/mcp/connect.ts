import 'server-only';
import { APP_MIME_TYPE, APPS_EXTENSION } from '@/lib/mcp-apps/sandbox-policy';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type Root,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallHooks } from '@/lib/mcp/active-calls';
import type { LineBuffer } from '@/lib/mcp/line-buffer';
import { ServerLogSink } from '@/lib/mcp/notification-limit';
import { createBuiltinTransport } from '@/lib/mcp/transports/builtin';
import {
  createSseTransport,
  createStreamableHttpTransport,
  shouldFallBackToSse,
} from '@/lib/mcp/transports/remote';
import { createStdioTransport } from '@/lib/mcp/transports/stdio';
import type { McpServerConfig } from '@/lib/schemas/mcp';

export const CLIENT_INFO = { name: 'mcp-chat-host', version: '0.1.0' };

export type ConnectOptions = {
  stderr: LineBuffer;
  /** How long the initialize handshake may take. */
  timeoutMs: number;
  onToolListChanged?: () => void;
  /** What the client answers; each capability is advertised only when its handler is given. */
  handlers?: ClientHandlers;
  /** OAuth for http/sse servers (lib/mcp/oauth): the transport sends, refreshes and asks for tokens. */
  authProvider?: OAuthClientProvider;
  /** Where the server's log messages go (the connection's, for the admin's page). */
  logs?: ServerLogSink;
  /** A subscribed resource changed (notifications/resources/updated). */
  onResourceUpdated?: (uri: string) => void;
  /** Sent with logging/setLevel once connected, when the server logs. */
  logLevel?: McpServerConfig['logLevel'];
};

/** Requests and notifications a server may send the client, routed to the call they serve. */
export type ClientHandlers = {
  elicit?: NonNullable<CallHooks['elicit']>;
  elicitationComplete?: (elicitationId: string) => void;
  sample?: NonNullable<CallHooks['sample']>;
  /** The roots shared with the server, read on each roots/list. */
  roots?: () => Root[];
  /** MCP Apps: the host renders the server's tool UIs (advertised as the `io.modelcontextprotocol/ui` extension). */
  apps?: boolean;
};

function capabilitiesOf(h: ClientHandlers): NonNullable<ClientOptions['capabilities']> {
  return {
    ...(h.elicit && { elicitation: { form: { applyDefaults: true }, url: {} } }),
    ...(h.sample && { sampling: { tools: {} } }),
    ...(h.roots && { roots: { listChanged: true } }),
    ...(h.apps && { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } }),
  };
}

function newClient(opts: ConnectOptions): Client {
  // Advertise only what we handle: a request for anything else is refused (method not found).
  const h = opts.handlers ?? {};
  const client = new Client(CLIENT_INFO, { capabilities: capabilitiesOf(h) });
  if (opts.onToolListChanged)
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => opts.onToolListChanged?.());
  // Log notifications may carry a server's secrets: kept for admins only, masked and rate-limited.
  const logs = opts.logs ?? new ServerLogSink();
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.record(n.params));
  if (opts.onResourceUpdated)
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
      opts.onResourceUpdated?.(n.params.uri),
    );
  const { elicit, sample, roots, elicitationComplete } = h;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (req, extra) => elicit(req.params, extra.signal));
  if (elicitationComplete)
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) =>
      elicitationComplete(n.params.elicitationId),
    );
  if (sample)
    client.setRequestHandler(CreateMessageRequestSchema, (req, extra) => sample(req.params, extra.signal));
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots() }));
  return client;
}

async function connectWith(transport: Transport, opts: ConnectOptions): Promise<Client> {
  const client = newClient(opts);
  try {
    await client.connect(transport, { timeout: opts.timeoutMs });
    if (opts.logLevel && client.getServerCapabilities()?.logging)
      await client
        .setLoggingLevel(opts.logLevel, { timeout: opts.timeoutMs })
        .catch((err: unknown) => opts.logs?.note(`logging/setLevel "${opts.logLevel}" refused: ${err}`));
    return client;
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
}

/** Opens a connected SDK Client for a server config, over the transport it names. */
export async function connectClient(config: McpServerConfig, opts: ConnectOptions): Promise<Client> {
  switch (config.transport) {
    case 'stdio':
      return connectWith(createStdioTransport(config, opts.stderr), opts);
    case 'builtin':
      return connectWith(await createBuiltinTransport(config.builtin), opts);
    case 'sse':
      return connectWith(createSseTransport(config, opts.authProvider), opts);
    case 'http':
      try {
        return await connectWith(createStreamableHttpTransport(config, opts.authProvider), opts);
      } catch (err) {
        if (!shouldFallBackToSse(err)) throw err;
        opts.stderr.push('[host] Streamable HTTP refused; falling back to legacy SSE');
        return connectWith(createSseTransport(config, opts.authProvider), opts);
      }
  }
}
