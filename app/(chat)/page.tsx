import { generateId } from 'ai';
import { requirePageUser } from '@/app/_server/page-user';
import { modelSources } from '@/app/_server/model-sources';
import { listModels } from '@/lib/providers';
import { Chat } from './_components/chat';

export const dynamic = 'force-dynamic';

export default async function NewChatPage() {
  // Each page checks the session itself: the layout's check does not keep a page's data out of the response.
  const user = await requirePageUser();
  const id = generateId();
  const models = listModels(modelSources(), user);
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
    />
  );
}
