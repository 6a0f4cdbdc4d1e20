import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { getOwnConversation } from '@/db/queries/conversations';
import { listMessages } from '@/db/queries/messages';
import { requirePageUser } from '@/app/_server/page-user';
import { getEnv } from '@/lib/env';
import { envProviderConfigured, NO_PROVIDER_MESSAGE } from '@/lib/providers';
import type { ChatMessage } from '../../_components/message-item';
import { Chat } from '../../_components/chat';

export const dynamic = 'force-dynamic';

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser();
  const { id } = await params;
  const db = getDb();
  const conversation = getOwnConversation(db, user.id, id);
  if (!conversation) notFound();
  return (
    <Chat
      key={id}
      id={id}
      initialMessages={listMessages(db, id) as ChatMessage[]}
      isNew={false}
      noProviderMessage={envProviderConfigured(getEnv()) ? null : NO_PROVIDER_MESSAGE}
    />
  );
}
