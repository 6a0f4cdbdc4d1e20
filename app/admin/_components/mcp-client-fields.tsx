'use client';

import type { SamplingPolicy } from '@/lib/schemas/mcp';
import { McpAppsFields } from './mcp-apps-fields';
import { type FieldGroupProps, INPUT } from './mcp-server-draft';

const SAMPLING_HINT: Record<SamplingPolicy, string> = {
  ask: 'The user sees what the server wants to send to the model and approves or denies each request.',
  auto: 'Requests run on the conversation’s model at once (still shown in the conversation, and counted in the user’s limits).',
  never: 'The server is told this host does not sample; tools that need it may refuse to run.',
};

/** What the server may ask of the host while it works: the model (sampling) and which folders it may use (roots). */
export function McpClientFields({ base, draft, update, bind, box }: FieldGroupProps) {
  if (draft.transport === 'builtin') return null;
  return (
    <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">Requests from the server</legend>
      <div>
        <label htmlFor={`${base}-sampling`} className="block text-sm font-medium">
          Sampling (the server asks the model)
        </label>
        <select
          id={`${base}-sampling`}
          value={draft.sampling}
          onChange={(e) => update({ sampling: e.target.value as SamplingPolicy })}
          aria-describedby={`${base}-sampling-hint`}
          className={INPUT}
        >
          <option value="ask">Ask the user each time</option>
          <option value="auto">Sample without asking</option>
          <option value="never">Never sample</option>
        </select>
        <p id={`${base}-sampling-hint`} className="mt-1 text-xs text-zinc-500">
          {SAMPLING_HINT[draft.sampling]}
        </p>
      </div>
      {box(
        'roots',
        'Roots (one file URI per line)',
        <textarea
          {...bind('roots')}
          rows={2}
          placeholder="file:///srv/shared-docs"
          spellCheck={false}
          className={`${INPUT} font-mono`}
        />,
      )}
      <p className="-mt-2 text-xs text-zinc-500">
        Folders the server may work in, told to it as MCP roots. A per-user server also gets the user’s own
        folder as its first root. Changing them tells running servers at once.
      </p>
      <McpAppsFields base={base} draft={draft} update={update} />
    </fieldset>
  );
}
