import { generateId } from 'ai';
import { requirePageUser } from '@/app/_server/page-user';
import { modelSources } from '@/app/_server/model-sources';
import { listModels } from '@/lib/providers';
import { setupStatus } from '@/app/_server/setup-status';
import { Chat } from './_components/chat';
import { SetupChecklist } from './_components/setup-checklist';

export const dynamic = 'force-dynamic';

export default async function NewChatPage() {
  // Each page checks the session itself: the layout's check does not keep a page's data out of the response.
  const user = await requirePageUser();
  const id = generateId();
  const models = listModels(modelSources(), user);
  // An admin's first-run checklist, until every step is done.
  const setup = user.role === 'admin' ? setupStatus(user) : null;
  const setupOpen = setup && !(setup.provider && setup.mcp && setup.users);
  return (
    <Chat
      key={id}
      id={id}
      title="New chat"
      initialMessages={[]}
      initialToolSettings={{}}
      isNew
      models={models}
      initialModel={models[0]?.id ?? null}
      noProvider={models.length ? null : { admin: user.role === 'admin' }}
      setup={setupOpen ? <SetupChecklist status={setup} /> : null}
    />
  );
}
