import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { assistantName } from '@/db/queries/assistants';
import { getOwnConversation } from '@/db/queries/conversations';
import { listMessagePage } from '@/db/queries/messages';
import { siblingsOf } from '@/db/queries/message-tree';
import { modelSources } from '@/app/_server/model-sources';
import { requirePageUser } from '@/app/_server/page-user';
import { isTurnRunning } from '@/app/_server/running-turns';
import { listModels } from '@/lib/providers';
import { Chat } from '../../_components/chat';

export const dynamic = 'force-dynamic';

/** Messages sent with the page; older ones load on scroll-up (GET /api/conversations/[id]/messages). */
const FIRST_PAGE = 50;

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser();
  const { id } = await params;
  const db = getDb();
  const conversation = await getOwnConversation(db, user.id, id);
  if (!conversation) notFound();
  const models = listModels(await modelSources(), user);
  const page = await listMessagePage(db, id, { limit: FIRST_PAGE });
  const name = await assistantName(db, user.id, conversation.assistantId);
  const remembered = models.some((m) => m.id === conversation.model) ? conversation.model : null;
  return (
    <Chat
      key={id}
      id={id}
      title={conversation.title}
      initialMessages={page.messages}
      olderBefore={page.before}
      initialSiblings={
        await siblingsOf(
          db,
          id,
          page.messages.map((m) => m.id),
        )
      }
      isNew={false}
      initialToolSettings={{
        toolMode: conversation.toolMode,
        servers: conversation.toolServers,
        disabledTools: conversation.disabledTools,
        maxSteps: conversation.maxSteps,
        maxToolCalls: conversation.maxToolCalls,
      }}
      models={models}
      initialModel={remembered ?? models[0]?.id ?? null}
      noProvider={models.length ? null : { admin: user.role === 'admin' }}
      running={await isTurnRunning(id)}
      assistant={name && conversation.assistantId ? { id: conversation.assistantId, name } : null}
      initialInstructions={conversation.instructions}
    />
  );
}
