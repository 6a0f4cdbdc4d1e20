// The official MCP client conformance harness runs this with the scenario server's URL as the last
// argument. It connects with the pool's own connection code (McpConnection → connectClient →
// Streamable HTTP), lists the tools and calls each one, as the chat loop would.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { acceptWithDefaults } from '@/lib/mcp/elicitation';

/** Plausible arguments from a tool's JSON schema (numbers 1, 2, …; strings "test"; booleans true). */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let n = 1;
  for (const [key, prop] of Object.entries(
    (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>,
  )) {
    if (prop.type === 'number' || prop.type === 'integer') args[key] = n++;
    else if (prop.type === 'boolean') args[key] = true;
    else args[key] = 'test';
  }
  return args;
}

async function main() {
  const url = process.argv.at(-1);
  if (!url) throw new Error('usage: client.ts <server-url>');
  const connection = new McpConnection(
    {
      name: 'conformance',
      transport: 'http',
      allow: ['*'],
      scope: 'shared',
      userValues: [],
      url,
      headers: {},
      allowPrivateNetwork: true,
      enabled: true,
      timeoutMs: 20_000,
    },
    { ...DEFAULT_CONNECTION_OPTIONS, onElicit: acceptWithDefaults },
  );
  try {
    for (const tool of await connection.listTools()) {
      const result = await connection.callTool(tool.name, argumentsFor(tool));
      console.log(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`);
    }
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
