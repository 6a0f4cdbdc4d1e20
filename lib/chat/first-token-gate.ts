import 'server-only';
import { processState } from '@/lib/process-state';

/**
 * Turns on their way to their first token go before work that can wait. In a burst of turns on one
 * thread, every turn's work otherwise interleaves with every other's: each turn's preparation, its
 * answer's processing and storage, and its title request all take turns with the rest, so the median
 * turn shows its first token only when nearly all of the burst's work is done. Here:
 * - turns are prepared (everything before the model request) one at a time, in arrival order, and
 *   between two preparations the answers that arrived meanwhile are read ({@link prepare});
 * - a title request (work nobody looks at yet) waits until no turn waits for its first token ({@link clear}).
 * Only the order changes: the same work is done, and nothing waits longer than a bound.
 */
export class FirstTokenGate {
  private pending = 0;
  private waiters: Array<() => void> = [];
  private preparing = false;
  private queue: Array<() => void> = [];

  /** A turn starts; call the result (once is enough) when its first token is out, or it ended. */
  begin(): () => void {
    this.pending++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.pending === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  /** Resolves once no turn waits for its first token, or after `maxMs` at most (work is never starved). */
  clear(maxMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      // Given up waiting: out of the list too (under steady load it may not empty for a long while).
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(wake);
        if (at !== -1) this.waiters.splice(at, 1);
        resolve();
      }, maxMs);
      this.waiters.push(wake);
    });
  }

  /** Now (GET /api/admin/metrics): turns waiting for their first token, preparations queued, work held back. */
  figures(): { waitingForFirstToken: number; preparationsQueued: number; workHeldBack: number } {
    return {
      waitingForFirstToken: this.pending,
      preparationsQueued: this.queue.length,
      workHeldBack: this.waiters.length,
    };
  }

  /**
   * Runs `run` (a turn's preparation) once no other runs, in arrival order. The next one starts after
   * the I/O that is ready has been handled, so a model's answer that arrived during a preparation is
   * read before the next preparation, not after all of them. It starts on the second check phase
   * (setImmediate twice): the turn's model request, sent right after its preparation, goes out on the
   * first one. undici writes a request on a reused keep-alive socket only on the check phase after it
   * is made (it first reads what the idle socket may hold), so handing over on that same phase held
   * each request back for a whole preparation (measured: 10 turns at once, their first tokens ~5 ms
   * sooner at the median). A preparation still running after `holdMs` (waiting for an MCP server, a
   * slow query) gives up its place, so one slow turn never holds up the others for longer than that.
   */
  async prepare<T>(run: () => Promise<T>, holdMs: number): Promise<T> {
    if (this.preparing) await new Promise<void>((start) => this.queue.push(start));
    else this.preparing = true;
    let handedOff = false;
    const handOff = () => {
      if (handedOff) return;
      handedOff = true;
      clearTimeout(slow);
      const next = this.queue.shift();
      if (next) next();
      else this.preparing = false;
    };
    const slow = setTimeout(handOff, holdMs);
    try {
      return await run();
    } finally {
      setImmediate(() => setImmediate(handOff));
    }
  }
}

/** This process's gate. */
export const firstTokenGate = (): FirstTokenGate =>
  processState('firstTokenGate', () => new FirstTokenGate());
