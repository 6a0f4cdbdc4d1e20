import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A child that, like Next.js's server, logs every uncaught exception to stderr, then writes to stderr
 * after the reading end of its pipe is closed. Each uncaught exception is counted in a file.
 */
async function uncaughtAfterPipeCloses(withFix: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'log-streams-'));
  const counter = join(dir, 'count');
  const script = `
    import { appendFileSync } from 'node:fs';
    import { survivePipeClose } from ${JSON.stringify(join(import.meta.dirname, 'log-streams.ts'))};
    process.on('uncaughtException', (err) => {
      appendFileSync(${JSON.stringify(counter)}, 'x');
      console.error('uncaughtException: ', err);
    });
    if (${withFix}) survivePipeClose();
    process.stdin.once('data', () => setInterval(() => console.error('a log line'), 50));
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  try {
    await sleep(1500); // started
    child.stderr.destroy(); // whoever read the logs is gone
    child.stdin.write('go\n');
    await sleep(700);
    let count = 0;
    try {
      count = readFileSync(counter, 'utf8').length;
    } catch {
      // no uncaught exception at all
    }
    return count;
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a closed log pipe does not make every log line an uncaught exception (that looped at 100% CPU)', async () => {
  assert.ok((await uncaughtAfterPipeCloses(false)) > 10, 'the failure this guards against still happens');
  assert.equal(await uncaughtAfterPipeCloses(true), 0);
});
