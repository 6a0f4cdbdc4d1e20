import 'server-only';
import { getDb } from '@/db/client';
import { getMcpServerByName } from '@/db/queries/mcp-servers';
import { AppError } from '@/lib/errors';
import { parseWith } from '@/lib/http';
import {
  ImportJsonSchema,
  type ImportPlan,
  keepMaskedSecrets,
  parseClaudeDesktopConfig,
} from '@/lib/mcp/import';

/**
 * What a Claude Desktop config would import, for the import API and for MCP_SERVERS_FILE at start:
 * entries checked, masked values resolved against the stored servers of the same name.
 */
export async function planImport(json: unknown): Promise<ImportPlan> {
  const parsed = parseClaudeDesktopConfig(parseWith(ImportJsonSchema, json, 'import'));
  const [first] = parsed.errors;
  if (parsed.errors.length === 1 && first?.name === '(file)')
    throw new AppError('bad_request', `Not a Claude Desktop config: ${first.message}.`);
  const db = getDb();
  const names = [...new Set(parsed.configs.map((c) => c.name))];
  const records = await Promise.all(names.map((name) => getMcpServerByName(db, name)));
  const stored = new Map(names.map((name, i) => [name, records[i]?.config ?? null]));
  return keepMaskedSecrets(parsed, (name) => stored.get(name) ?? null);
}
