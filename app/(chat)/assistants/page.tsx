import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/db/client';
import { listVisibleAssistants } from '@/db/queries/assistants';
import { presentAssistant } from '@/app/_server/assistants';
import { modelSources } from '@/app/_server/model-sources';
import { requirePageUser } from '@/app/_server/page-user';
import { getPool } from '@/lib/mcp/pool';
import { listModels } from '@/lib/providers';
import { AssistantsManager } from '../_components/assistants-manager';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('assistants');
  return { title: t('title') };
}

/** The user's assistants and the shared ones: create, edit, delete, and start a chat with one. */
export default async function AssistantsPage() {
  const user = await requirePageUser();
  const models = listModels(await modelSources(), user).map((m) => ({ id: m.id, label: m.label }));
  const usable = new Set(models.map((m) => m.id));
  const items = (await listVisibleAssistants(getDb(), user.id)).map((row) =>
    presentAssistant(user, row, usable),
  );
  const servers = getPool()
    .usableBy(user)
    .map((c) => c.name);
  return (
    <div className="h-full overflow-y-auto">
      <AssistantsManager initial={items} models={models} servers={servers} admin={user.role === 'admin'} />
    </div>
  );
}
