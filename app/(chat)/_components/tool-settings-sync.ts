import type { ToolSettings } from '@/lib/schemas/chat';
import { applyToolChange, mergeToolChanges, type ToolChange } from '@/lib/tool-toggles';

/** What a save or a read answers: the stored settings, or the server's reason (null: none, e.g. offline). */
export type SyncAnswer = { ok: true; settings: ToolSettings } | { ok: false; error: string | null };

export type SyncTransport = {
  /** PATCH the change; answers the settings as stored after it. */
  save(change: ToolChange): Promise<SyncAnswer>;
  /** The settings as stored now. */
  read(): Promise<SyncAnswer>;
};

type Options = {
  transport: SyncTransport;
  /** Whether the conversation exists (a new chat keeps its settings here and sends them with its first message). */
  saved: () => boolean;
  /**
   * The settings to show changed; `failure`: the last save failed (the server's reason, or null);
   * `busy`: a save or a read is under way or waits.
   */
  onUpdate: (settings: ToolSettings, failure: { reason: string | null } | null, busy: boolean) => void;
};

/**
 * One tab's copy of a conversation's tool settings, kept in step with the stored ones. A change is sent as
 * what changed (a server or tool switched, the mode, a limit), applied by the server to what is stored
 * then, so what another tab changed meanwhile is kept. One request at a time: changes made while one runs
 * wait and go together. Each answer is the stored settings, which the tab then shows (with the changes
 * still waiting applied on top): the tab ends showing what is stored, another tab's changes included. A
 * save that fails is not shown as made: the tab reads the stored settings again.
 */
export class ToolSettingsSync {
  private stored: ToolSettings;
  private sending: ToolChange | null = null;
  private waiting: ToolChange | null = null;
  private reread = false;
  private running = false;
  private failure: { reason: string | null } | null = null;
  /** The servers the user may enable, as the Tools menu last listed them (see lib/tool-toggles). */
  private servers: readonly string[] = [];
  private idlers: Array<() => void> = [];
  /** A new chat's changes made after its first message took the settings: saved once it exists. */
  private unsent: ToolChange | null = null;

  constructor(
    initial: ToolSettings,
    private readonly options: Options,
  ) {
    this.stored = initial;
  }

  /** What the tab shows: the stored settings with the changes not yet answered applied. */
  get settings(): ToolSettings {
    const sent = applyToolChange(this.stored, this.sending, this.servers);
    return applyToolChange(sent, this.waiting, this.servers);
  }

  change(change: ToolChange, servers?: readonly string[]): void {
    if (servers?.length) this.servers = servers;
    if (!this.options.saved()) {
      this.stored = applyToolChange(this.stored, change, this.servers);
      this.unsent = mergeToolChanges(this.unsent, change);
      this.update();
      return;
    }
    this.waiting = mergeToolChanges(this.waiting, change);
    this.update();
    void this.pump();
  }

  /** A new chat's first message: the settings it carries (changes from now on wait for {@link created}). */
  forFirstMessage(): ToolSettings {
    this.unsent = null;
    return this.settings;
  }

  /**
   * The new chat's conversation exists (its first answer streams): the changes made since its first
   * message took the settings are saved now, else they would stay in this tab.
   */
  created(): void {
    if (!this.unsent) return;
    this.waiting = this.waiting ? mergeToolChanges(this.unsent, this.waiting) : this.unsent;
    this.unsent = null;
    this.update();
    void this.pump();
  }

  /** Reads the stored settings again (the Tools menu opened: another tab may have changed them). */
  refresh(): void {
    if (!this.options.saved()) return;
    this.reread = true;
    void this.pump();
  }

  /** Resolves once nothing waits to be sent or read. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idlers.push(resolve));
  }

  private update() {
    this.options.onUpdate(this.settings, this.failure, this.running || this.waiting !== null || this.reread);
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting || this.reread) {
        const change = this.waiting;
        this.sending = change;
        this.waiting = null;
        this.reread = false;
        this.update();
        const answer = await (change ? this.options.transport.save(change) : this.options.transport.read());
        this.sending = null;
        if (answer.ok) {
          this.stored = answer.settings;
          if (change) this.failure = null;
        } else if (change) {
          // Not stored: shown as it is stored, read again.
          this.failure = { reason: answer.error };
          this.reread = true;
        }
        this.update();
      }
    } finally {
      this.running = false;
      this.update();
      for (const resolve of this.idlers.splice(0)) resolve();
    }
  }
}

const SETTINGS_FIELDS = ['toolMode', 'servers', 'disabledTools', 'maxSteps', 'maxToolCalls'] as const;

/** The tool settings of a conversation as GET or PATCH /api/conversations/[id] answers it. */
export function settingsOf(conversation: Record<string, unknown>): ToolSettings {
  return Object.fromEntries(
    SETTINGS_FIELDS.filter((f) => conversation[f] !== undefined).map((f) => [f, conversation[f]]),
  ) as ToolSettings;
}

/** Saves and reads through /api/conversations/[id]. */
export function conversationTransport(id: string): SyncTransport {
  const url = `/api/conversations/${encodeURIComponent(id)}`;
  const answer = async (res: Response | null): Promise<SyncAnswer> => {
    const body = (await res?.json().catch(() => null)) as Record<string, unknown> | null;
    if (res?.ok && body) return { ok: true, settings: settingsOf(body) };
    const error = (body?.error as { message?: unknown } | undefined)?.message;
    return { ok: false, error: typeof error === 'string' ? error : null };
  };
  return {
    save: async (change) =>
      answer(
        await fetch(url, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(change),
        }).catch(() => null),
      ),
    read: async () => answer(await fetch(`${url}?messages=0`, { cache: 'no-store' }).catch(() => null)),
  };
}
