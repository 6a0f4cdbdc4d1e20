import { generateId } from 'ai';
import { getEnv } from '@/lib/env';
import { envProviderConfigured, NO_PROVIDER_MESSAGE } from '@/lib/providers';
import { Chat } from './_components/chat';

export const dynamic = 'force-dynamic';

export default function NewChatPage() {
  const id = generateId();
  return (
    <Chat
      key={id}
      id={id}
      initialMessages={[]}
      isNew
      noProviderMessage={envProviderConfigured(getEnv()) ? null : NO_PROVIDER_MESSAGE}
    />
  );
}
