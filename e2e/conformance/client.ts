// The official MCP client conformance harness runs this with the scenario server's URL as the last
// argument (and, for some auth scenarios, MCP_CONFORMANCE_CONTEXT with client credentials). It connects
// with the pool's own connection code (McpConnection → connectClient → Streamable HTTP) and the app's
// OAuth provider (lib/mcp/oauth), lists the tools and calls each one, as the chat loop would. When the
// server asks for authorization, it does what the browser and the app's routes do: beginAuthorization,
// follow the URL headlessly (see headless.ts), finishAuthorization with the callback's code and state.
import type { ElicitRequest, ElicitResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { contextFromEnv, grantFor, signInHeadlessly } from '@/e2e/conformance/headless';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { checkAnswer, formFields, initialValue } from '@/lib/elicitation-form';
import { classifyError } from '@/lib/mcp/errors';
import { createOAuthProvider, MemoryStore } from '@/lib/mcp/oauth';

/** Sign-ins one operation may need (first authorization, then one step-up); more means a loop. */
const MAX_AUTHORIZATIONS = 3;

/**
 * Answers a form elicitation as a user who submits the form as shown does: the app's form code builds
 * the fields (each starts at its default) and checks the answer exactly as the answer route does.
 */
async function submitFormAsShown(params: ElicitRequest['params']): Promise<ElicitResult> {
  if (params.mode === 'url') return { action: 'decline' };
  const form = formFields(params.requestedSchema);
  if ('error' in form) return { action: 'decline' };
  const entered = Object.fromEntries(form.fields.map((f) => [f.key, initialValue(f)]));
  const checked = checkAnswer(form.fields, entered);
  return 'content' in checked ? { action: 'accept', content: checked.content } : { action: 'cancel' };
}

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
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const context = contextFromEnv();
  const provider = createOAuthProvider({
    serverUrl: url,
    store: new MemoryStore(),
    clientStore: new MemoryStore(),
    lockKey: 'conformance',
    redirectUrl: 'http://localhost:3000/api/mcp/oauth/callback',
    // The URL the suite's auth/basic-cimd scenario expects as the client id.
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    config: context.client_id
      ? { clientId: context.client_id, clientSecret: context.client_secret }
      : undefined,
    grant: grantFor(scenario, context),
  });
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
    // No backoff: after a sign-in the next attempt goes out at once, as after the app's callback.
    { ...DEFAULT_CONNECTION_OPTIONS, baseBackoffMs: 0, authProvider: provider },
  );

  /** Runs `op`; when it fails for want of authorization, signs in (as the user would) and runs it again. */
  async function authorized<T>(op: () => Promise<T>): Promise<T> {
    for (let signIns = 0; ; signIns++) {
      try {
        return await op();
      } catch (err) {
        const failure = classifyError(err);
        if (failure.kind !== 'auth' || signIns >= MAX_AUTHORIZATIONS) throw err;
        console.log(`authorization needed (${failure.message}); signing in`);
        const started = await provider.beginAuthorization();
        if ('url' in started) {
          const { code, state } = await signInHeadlessly(started.url);
          await provider.finishAuthorization(code, state);
        }
      }
    }
  }

  try {
    for (const tool of await authorized(() => connection.listTools())) {
      const result = await authorized(() =>
        connection.callTool(tool.name, argumentsFor(tool), { hooks: { elicit: submitFormAsShown } }),
      );
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
