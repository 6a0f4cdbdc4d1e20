import { generateId } from 'ai';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/db/client';
import { getVisibleAssistant, listVisibleAssistants } from '@/db/queries/assistants';
import { presentAssistant } from '@/app/_server/assistants';
import { requirePageUser } from '@/app/_server/page-user';
import { modelSources } from '@/app/_server/model-sources';
import { listModels } from '@/lib/providers';
import { setupStatus } from '@/app/_server/setup-status';
import type { ToolSettings } from '@/lib/schemas/chat';
import { Chat } from './_components/chat';
import { SetupChecklist } from './_components/setup-checklist';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<{ assistant?: string | string[] }>;

/** A new chat; `?assistant=<id>` starts it with that assistant ("New chat with …"). */
export default async function NewChatPage({ searchParams }: { searchParams: SearchParams }) {
  // Each page checks the session itself: the layout's check does not keep a page's data out of the response.
  const user = await requirePageUser();
  const { assistant: requested } = await searchParams;
  const id = generateId();
  const db = getDb();
  const models = listModels(await modelSources(), user);
  // An admin's first-run checklist, until every step is done.
  const setup = user.role === 'admin' ? await setupStatus(user) : null;
  const setupOpen = setup && !(setup.provider && setup.mcp && setup.users);
  // An assistant the user cannot see (another user's, deleted) is ignored: a plain new chat.
  const row = typeof requested === 'string' ? await getVisibleAssistant(db, user.id, requested) : null;
  const assistant = row ? presentAssistant(user, row, new Set(models.map((m) => m.id))) : null;
  const seeded: ToolSettings = assistant
    ? {
        ...(assistant.toolMode ? { toolMode: assistant.toolMode } : {}),
        ...(assistant.servers ? { servers: assistant.servers } : {}),
      }
    : {};
  // The assistant's model when this user may use it (a shared one may name a model limited to others).
  const model = models.find((m) => m.id === assistant?.model)?.id ?? models[0]?.id ?? null;
  const offered = assistant
    ? []
    : (await listVisibleAssistants(db, user.id)).map((a) => ({ id: a.id, name: a.name }));
  return (
    <Chat
      key={id}
      id={id}
      title={(await getTranslations('chat'))('newChat')}
      initialMessages={[]}
      initialToolSettings={seeded}
      isNew
      models={models}
      initialModel={model}
      noProvider={models.length ? null : { admin: user.role === 'admin' }}
      setup={setupOpen ? <SetupChecklist status={setup} /> : null}
      assistant={assistant ? { id: assistant.id, name: assistant.name } : null}
      initialInstructions={assistant?.instructions ?? null}
      assistants={offered}
    />
  );
}
