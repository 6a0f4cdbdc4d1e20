import { useTranslations } from 'next-intl';

/** An MCP App's tool call waiting for the user's approval. */
export type PendingCall = { id: string; tool: string; args: string; answer: (approved: boolean) => void };

/** The approval card for an app's tool call that asks for one: the tool, its arguments, Approve / Deny. */
export function AppCallApproval({ call, server }: { call: PendingCall; server: string }) {
  const t = useTranslations('mcpApps');
  return (
    <div
      data-app-approval={call.tool}
      className="space-y-2 rounded bg-amber-50 p-2 text-xs dark:bg-amber-950"
    >
      <p>{t('approvalText', { tool: call.tool, server })}</p>
      <pre className="whitespace-pre-wrap break-words rounded bg-white/60 p-2 dark:bg-black/30">
        {call.args}
      </pre>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={() => call.answer(true)}
          className="rounded bg-green-600 px-3 py-1 font-semibold text-white hover:bg-green-700"
        >
          {t('approve')}
        </button>
        <button
          type="button"
          onClick={() => call.answer(false)}
          className="rounded bg-zinc-600 px-3 py-1 font-semibold text-white hover:bg-zinc-700"
        >
          {t('deny')}
        </button>
      </div>
    </div>
  );
}
