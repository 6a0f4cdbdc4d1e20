/**
 * A calibration for the CPU figures of streamed answers: the same piece of JavaScript, run back to back
 * and then once every `gapMs` (as a paced answer's work arrives: a few tokens, then the process idles
 * until the next ones). On this 2-core VM (tick-less idle, mitigations on VM entry) a piece run after
 * an idle gap measured several times the CPU of the same piece run back to back: caches, TLB and branch
 * predictors are cold after each gap. A paced turn is ~20-200 such wake-ups, so its CPU per turn is
 * mostly this machine's wake-up cost; printed beside it so a reader can tell the app's work from that.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** ~40 µs of allocation-heavy work when warm (small objects and strings, as stream stages make). */
function piece(): number {
  const items: Array<{ i: number; s: string }> = [];
  let n = 0;
  for (let i = 0; i < 3000; i++) {
    items.push({ i, s: `x${i}` });
    n += items[i]!.s.length;
  }
  return n;
}

export type ColdWork = { backToBackUs: number; spacedUs: number; gapMs: number; factor: number };

/** CPU µs per piece back to back, and run once every `gapMs` (`pieces` of each, after a warm-up). */
export async function measureColdWork(gapMs = 20, pieces = 200): Promise<ColdWork> {
  let sink = 0;
  for (let i = 0; i < pieces; i++) sink += piece();
  const cpu = () => {
    const c = process.cpuUsage();
    return c.user + c.system;
  };
  let c0 = cpu();
  for (let i = 0; i < pieces; i++) sink += piece();
  const backToBackUs = (cpu() - c0) / pieces;
  c0 = cpu();
  for (let i = 0; i < pieces; i++) {
    sink += piece();
    await sleep(gapMs);
  }
  const spacedUs = (cpu() - c0) / pieces;
  if (sink < 0) console.log(sink); // keeps the work from being optimised away
  return { backToBackUs, spacedUs, gapMs, factor: spacedUs / backToBackUs };
}
