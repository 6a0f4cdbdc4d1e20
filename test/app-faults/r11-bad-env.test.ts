/**
 * A bad environment stops the server with the reason: a malformed ENCRYPTION_KEY (or another invalid
 * variable) must not leave a server running that answers every request with a 500.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { test } from 'node:test';
import { freePort, nextStartArgv, startChild, stopChild } from '@/bench/chat-turn-procs';
import { requireBuild, ROOT } from './harness';

for (const [name, value, reason] of [
  ['ENCRYPTION_KEY', 'not-a-hex-key', /ENCRYPTION_KEY: must be 32 bytes written as 64 hex characters/],
  ['APP_URL', 'not a url', /APP_URL/],
] as const) {
  test(`R11: ${name}=${JSON.stringify(value)} stops the server at start with the reason`, async () => {
    requireBuild();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bad-env-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'production',
      PATH: process.env.PATH,
      DATABASE_PATH: path.join(dir, 'app.db'),
      [name]: value,
    };
    const app = startChild('app', nextStartArgv(port), env, ROOT);
    try {
      const timer = setTimeout(() => app.proc.kill('SIGKILL'), 30_000);
      const [code] = await once(app.proc, 'exit');
      clearTimeout(timer);
      assert.equal(code, 1, `exit code (log: ${app.log.join('\n')})`);
      assert.match(app.log.join('\n'), reason);
      assert.match(app.log.join('\n'), /The server is not started/);
    } finally {
      await stopChild(app, 1000);
    }
  });
}
