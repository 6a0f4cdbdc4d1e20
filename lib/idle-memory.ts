/**
 * Gives memory back once the server goes quiet after a load.
 *
 * V8 grows its heap under load and, in a server (which never idles the way a browser tab does), keeps
 * it: after 50 concurrent turns RSS stayed at its peak (~400 MB) long after the load ended. When no
 * tracked work has run for `idleMs`, one memory-reducing full GC runs (the "last-resort" flavour, which
 * also hands pooled heap pages back to the OS): measured, RSS fell from ~250 MB to ~170 MB. It runs
 * only when nothing is streaming, once per quiet period. Needs `--expose-gc` (scripts/node-flags.mjs);
 * without it nothing happens.
 */
export class IdleMemoryRelease {
  private active = 0;
  private workSinceCollect = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly collect: () => void = collectGarbage,
  ) {}

  /** Marks work as running; call the returned function (once) when it ends. */
  begin(): () => void {
    this.active++;
    this.workSinceCollect = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      if (this.active === 0) this.arm();
    };
  }

  private arm() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.active > 0 || !this.workSinceCollect) return;
      this.workSinceCollect = false;
      this.collect();
    }, this.idleMs);
    this.timer.unref();
  }
}

type GcOptions = { type: 'major'; execution: 'sync'; flavor: 'last-resort' };

function collectGarbage(): void {
  (globalThis as { gc?: (options: GcOptions) => void }).gc?.({
    type: 'major',
    execution: 'sync',
    flavor: 'last-resort',
  });
}
