import 'server-only';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { LineBuffer } from '@/lib/mcp/line-buffer';
import { ProcessGroupTransport } from '@/lib/mcp/transports/process-group';
import type { StdioConfig } from '@/lib/schemas/mcp';

/** Largest single message we accept from a child (a tool result is truncated later, at 100 KB, before the model). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * A child process speaking MCP on stdin/stdout. The command and its arguments go to spawn as an argv
 * array (never through a shell), and the child's environment is the SDK's minimal allowlist (PATH,
 * HOME, USER, …) plus the server's own configured variables — never the app's secrets. The child leads
 * its own process group, which goes with it (ProcessGroupTransport).
 */
export function createStdioTransport(config: StdioConfig, stderr: LineBuffer): ProcessGroupTransport {
  return new ProcessGroupTransport({
    command: config.command,
    args: config.args,
    cwd: config.cwd ?? undefined,
    env: { ...getDefaultEnvironment(), ...config.env },
    maxBufferSize: MAX_MESSAGE_BYTES,
    onStderr: (text) => stderr.write(text),
  });
}
