import 'server-only';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createCalculatorServer } from '@/lib/mcp/builtin/calculator';
import { createTimeServer } from '@/lib/mcp/builtin/time';
import type { BuiltinServer } from '@/lib/schemas/mcp';

const FACTORIES: Record<BuiltinServer, () => McpServer> = {
  time: () => createTimeServer(),
  calculator: () => createCalculatorServer(),
};

/** An in-process server over a linked in-memory pair; closing the client side closes the server. */
export async function createBuiltinTransport(name: BuiltinServer): Promise<Transport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await FACTORIES[name]().connect(serverSide);
  return clientSide;
}
