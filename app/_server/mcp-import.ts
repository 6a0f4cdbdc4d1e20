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
export function planImport(json: unknown): ImportPlan {
  const parsed = parseClaudeDesktopConfig(parseWith(ImportJsonSchema, json, 'import'));
  const [first] = parsed.errors;
  if (parsed.errors.length === 1 && first?.name === '(file)')
    throw new AppError('bad_request', `Not a Claude Desktop config: ${first.message}.`);
  const db = getDb();
  return keepMaskedSecrets(parsed, (name) => getMcpServerByName(db, name)?.config ?? null);
}
