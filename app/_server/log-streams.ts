/**
 * When whatever reads the server's stdout or stderr goes away (a closed pipe: `npm start | tee log` whose
 * tee died, or the parent process that started it), each write fails with EPIPE. Unhandled, that error
 * reaches Next.js's uncaughtException handler, which logs it to the same stderr, which fails again: the
 * server spun at 100% CPU forever (found when two orphaned benchmark servers slowed a CI run). Write
 * errors of the two streams are dropped instead (there is nowhere left to report them) and the server
 * goes on serving.
 */
export function survivePipeClose(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') === 0) stream.on('error', () => {});
  }
}
