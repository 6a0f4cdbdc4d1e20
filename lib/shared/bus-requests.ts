import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Bus } from '@/lib/shared/bus';

/**
 * How long an admin view waits at most for the other processes' answers to a `gather` (it ends sooner,
 * once every subscribed process has answered). Generous: a process slow under load (a second or so on a
 * busy 2-core box) would otherwise be left out of the statuses, logs and metrics it asks for, and a
 * monitor would count one process too few; only a process that hangs makes the view wait this long.
 */
export const GATHER_MS = 1500;

type Ask<Q> = { kind: 'ask'; id: string; replyTo: string; question: Q };
type Reply<R> = { kind: 'reply'; id: string; to: string; reply: R };

/**
 * A question to whichever instance holds the answer, over the bus: `ask` publishes it on `channel`, every
 * other instance's `serve` looks, the one that holds it replies (the others stay silent), and `ask`
 * resolves with the first reply, or null when none came within `waitMs` (nobody holds it); `gather`
 * collects every instance's reply within a window. For state that lives in one process and must be
 * reachable from a request that arrived at another (an answer to a running turn's question, sent from a
 * tab whose requests reach another worker; each worker's logs of an MCP server).
 */
export class BusRequests<Q, R> {
  private readonly waiting = new Map<string, (reply: R) => void>();
  private ready?: Promise<unknown>;

  constructor(
    private readonly bus: Bus,
    private readonly channel: string,
    /** This instance's answer to a question, or null when it does not hold what is asked about. */
    private readonly serve: (question: Q) => Promise<R | null> | R | null,
    private readonly waitMs = 2_000,
  ) {}

  /** Listens for questions and replies; resolves once Redis has the subscription. */
  start(): Promise<unknown> {
    this.ready ??= this.bus.subscribe(this.channel, (message) => void this.receive(message));
    return this.ready;
  }

  /** Startup: listens as `start` does; a failure is logged (naming `what` is asked for), not thrown. */
  listen(what: string): void {
    this.start().catch((err) => console.error(`[redis] could not listen for requests for ${what}`, err));
  }

  /** The first reply from the instance that holds the answer, or null when none came within the wait. */
  async ask(question: Q): Promise<R | null> {
    let timer: NodeJS.Timeout | undefined;
    return this.send(question, (id) => {
      return new Promise<R | null>((resolve) => {
        this.waiting.set(id, resolve);
        timer = setTimeout(() => resolve(null), this.waitMs);
      }).finally(() => clearTimeout(timer));
    });
  }

  /**
   * Every reply that came within `windowMs` (each instance that holds something answers once); sooner
   * once every other instance subscribed at the time of asking has answered. When Redis cannot be
   * reached, none (logged): the caller shows what this instance holds rather than failing.
   */
  async gather(question: Q, windowMs: number): Promise<R[]> {
    const replies: R[] = [];
    let others = Number.POSITIVE_INFINITY;
    let finish = () => {};
    const all = new Promise<R[]>((resolve) => {
      finish = () => resolve(replies);
    });
    let timer: NodeJS.Timeout | undefined;
    return this.send(
      question,
      (id) => {
        this.waiting.set(id, (reply) => {
          replies.push(reply);
          if (replies.length >= others) finish();
        });
        timer = setTimeout(finish, windowMs);
        return all.finally(() => clearTimeout(timer));
      },
      (receivers) => {
        // Redis counts this instance's own subscription among the receivers.
        others = receivers - 1;
        if (replies.length >= others) finish();
      },
    ).catch((err: unknown) => {
      clearTimeout(timer);
      console.error(`[bus] could not ask the other instances on "${this.channel}"`, err);
      return [];
    });
  }

  /** Publishes the question, then waits as `collect` says for the replies sent to this instance. */
  private async send<T>(
    question: Q,
    collect: (id: string) => Promise<T>,
    sent?: (receivers: number) => void,
  ): Promise<T> {
    await this.start();
    const id = randomUUID();
    const collected = collect(id);
    try {
      const ask: Ask<Q> = { kind: 'ask', id, replyTo: this.bus.instanceId, question };
      // Published whether or not `sent` wants the count (`sent?.(await …)` would skip the publish).
      const receivers = await this.bus.publish(this.channel, ask);
      sent?.(receivers);
      return await collected;
    } finally {
      this.waiting.delete(id);
    }
  }

  private async receive(message: unknown): Promise<void> {
    const m = message as {
      kind?: unknown;
      id?: unknown;
      to?: unknown;
      replyTo?: unknown;
      question?: Q;
      reply?: R;
    } | null;
    if (typeof m?.id !== 'string') return;
    if (m.kind === 'reply') {
      if (m.to === this.bus.instanceId) this.waiting.get(m.id)?.(m.reply as R);
      return;
    }
    if (m.kind !== 'ask' || typeof m.replyTo !== 'string') return;
    try {
      const reply = await this.serve(m.question as Q);
      if (reply === null) return;
      const answer: Reply<R> = { kind: 'reply', id: m.id, to: m.replyTo, reply };
      await this.bus.publish(this.channel, answer);
    } catch (err) {
      console.error(`[bus] could not answer a question on "${this.channel}"`, err);
    }
  }
}
