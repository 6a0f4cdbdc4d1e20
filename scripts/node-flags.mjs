// Node flags for the production server, shared by `npm start`, the e2e web servers and the benchmarks.
// --experimental-async-context-frame: AsyncLocalStorage (which Next.js uses on every request) keeps its
// context in a frame instead of async_hooks promise hooks. On Node 22 the hooks ran on every promise of
// the streaming path and cost ~45% of the server's CPU per chat turn (bench/profile-chat.ts); Node 24
// makes this the default.
// --heap-growing-percent=20: V8 grows the heap by 20% over the live size instead of up to 4x, so a load
// of 50 concurrent answers peaks near 250 MB RSS instead of ~400-500 MB (CPU per turn unchanged within noise).
// --expose-gc: lets lib/idle-memory.ts run one memory-reducing GC when the server goes quiet, so RSS
// returns to its idle level after a load instead of staying at the peak.
export const SERVER_NODE_FLAGS = [
  '--experimental-async-context-frame',
  '--heap-growing-percent=20',
  '--expose-gc',
];

/** The arguments after `node` for `next start` with those flags, on 127.0.0.1:`port`. */
export const nextStartArgs = (port) => [
  ...SERVER_NODE_FLAGS,
  'node_modules/next/dist/bin/next',
  'start',
  '-H',
  '127.0.0.1',
  '-p',
  String(port),
];
