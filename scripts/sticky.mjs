// Session-sticky connections for `npm start` with several workers (scripts/cluster-primary.mjs hands each
// connection to a worker; scripts/worker.mjs serves it). A user's per-user MCP children (a stdio server
// with state, such as a memory server) live in the worker that opened them, so every request of one
// session must reach the same worker, as the documented load balancer does between instances
// (docs/deploy.md: a consistent hash on the same cookie). node:cluster's own round-robin cannot see
// cookies.

/** better-auth's session cookie, plain and with the prefix it uses on https. */
const SESSION_COOKIES = ['better-auth.session_token', '__Secure-better-auth.session_token'];
/** The most a request's head may take before it is routed; a larger one goes to any worker. */
export const MAX_HEAD_BYTES = 32 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Whether `bytes` can still become an HTTP/1 request head: a method (capital letters) and a space. Anything
 * else (TLS, HTTP/2, noise) is handed over at once, for the worker to refuse, rather than waited on.
 */
export function mayBeHead(bytes) {
  const start = bytes.subarray(0, 17).toString('latin1');
  return /^[A-Z]*$/.test(start) || /^[A-Z]+ /.test(start);
}

/** Where the head of the first request ends in `bytes` (after its blank line), or -1 while it has not. */
export function headLength(bytes) {
  const at = bytes.indexOf(HEAD_END);
  return at < 0 ? -1 : at + HEAD_END.length;
}

/** The session cookie's value in a Cookie header (or several, joined), if there is one. */
export function sessionOf(cookieHeader) {
  if (!cookieHeader) return undefined;
  for (const pair of String(cookieHeader).split(/;\s*/)) {
    const eq = pair.indexOf('=');
    if (eq > 0 && SESSION_COOKIES.includes(pair.slice(0, eq).trim()))
      return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** The session cookie of a request head (raw bytes up to its blank line). */
export function sessionOfHead(head) {
  const cookies = [];
  for (const line of head.toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'cookie')
      cookies.push(line.slice(colon + 1));
  }
  return sessionOf(cookies.join('; '));
}

/** The worker (0-based) that owns a session: FNV-1a of the cookie's value, modulo the number of workers. */
export function ownerOf(session, count) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < session.length; i++) {
    hash ^= session.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/**
 * In a worker: whether this request's session belongs to another worker. A connection is routed by its
 * first request; a later one on it may carry another session (the first was made before signing in, or
 * another tab signed in as someone else), so its answer closes the connection and the browser's next
 * request is routed again.
 */
export function belongsElsewhere(cookieHeader, self, count) {
  const session = sessionOf(cookieHeader);
  return count > 1 && session !== undefined && ownerOf(session, count) !== self;
}

/** The message a worker receives with a connection's socket: the bytes the primary read to route it. */
export const CONNECTION_MESSAGE = 'mcp-chat:connection';

/**
 * In a worker: serves the connections the primary hands over with `server` (an http.Server that does not
 * listen itself). The bytes the primary already read are given to the server first. A request whose
 * session another worker owns is answered, then its connection closed ({@link belongsElsewhere}).
 */
export function serveHandedConnections(server) {
  const self = Number(process.env.MCP_CHAT_WORKER_ID) - 1;
  const count = Number(process.env.MCP_CHAT_WORKERS);
  server.prependListener('request', (req, res) => {
    if (belongsElsewhere(req.headers.cookie, self, count)) res.setHeader('connection', 'close');
  });
  // Node checks its per-request timeouts (headersTimeout, requestTimeout: a client that never finishes a
  // request) only once a server listens: a loopback port of its own, never announced, starts that
  // checking for the handed connections too.
  server.listen({ port: 0, host: '127.0.0.1', exclusive: true });
  process.on('message', (message, socket) => {
    if (message?.type !== CONNECTION_MESSAGE || !socket) return;
    server.emit('connection', socket);
    const head = Buffer.from(message.head, 'base64');
    if (head.length) socket.emit('data', head);
    socket.resume();
  });
}
