// A worker of `npm start` with several workers (scripts/cluster-primary.mjs): the Next.js server, serving
// the connections the primary hands it (routed by session, scripts/sticky.mjs) rather than listening
// itself. Same request handling as `next start` (Next's own router server, through its custom-server API).
// Arguments: -p PORT and -H HOST, the address the primary listens on (for the URLs Next builds), and
// --keepAliveTimeout MS as `next start` takes it.
import http from 'node:http';
import { serveHandedConnections } from './sticky.mjs';

process.env.NODE_ENV = 'production';
const arg = (names) => {
  const at = process.argv.findIndex((a) => names.includes(a));
  return at > 0 ? process.argv[at + 1] : undefined;
};
const port = Number(arg(['-p', '--port']) ?? process.env.PORT ?? 3000);
const hostname = arg(['-H', '--hostname']);

const { default: next } = await import('next');
const app = next({ dev: false, dir: process.cwd(), port, hostname });
// Connections are taken from the start: the primary may hand one over as soon as instrumentation.ts
// reports ready, which can be before prepare() resolves.
const prepared = app.prepare().then(() => app.getRequestHandler());
const server = http.createServer(async (req, res) => (await prepared)(req, res));
const keepAliveTimeout = arg(['--keepAliveTimeout']);
if (keepAliveTimeout) server.keepAliveTimeout = Number(keepAliveTimeout);
serveHandedConnections(server);
await prepared;
