// Node flags for the production server, shared by `npm start`, the e2e web servers and the benchmarks.
// --experimental-async-context-frame: AsyncLocalStorage (which Next.js uses on every request) keeps its
// context in a frame instead of async_hooks promise hooks. On Node 22 the hooks ran on every promise of
// the streaming path and cost ~45% of the server's CPU per chat turn (bench/profile-chat.ts); Node 24
// makes this the default.
export const SERVER_NODE_FLAGS = ['--experimental-async-context-frame'];
