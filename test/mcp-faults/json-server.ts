// A minimal Streamable HTTP MCP server for the fault tests (r13, r14): JSON answers, no session, and two
// tools: `slow`, whose calls the test answers as it likes, and `quick`, which answers its own name.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

/** Answers a JSON-RPC request with `result`. */
export const jsonResult = (res: http.ServerResponse, id: unknown, result: unknown) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result }));

/** Starts the server (closed after the calling file's tests); resolves to its /mcp address. */
export async function jsonMcpServer(
  name: string,
  tools: { slow: string; quick: string },
  answerSlow: (res: http.ServerResponse, id: unknown) => void,
): Promise<string> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      if (msg.id === undefined) return void res.writeHead(202).end();
      if (msg.method === 'initialize')
        return jsonResult(res, msg.id, {
          protocolVersion: msg.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name, version: '1.0.0' },
        });
      if (msg.method === 'tools/list')
        return jsonResult(res, msg.id, {
          tools: [tools.slow, tools.quick].map((tool) => ({ name: tool, inputSchema: { type: 'object' } })),
        });
      if (msg.method === 'tools/call' && msg.params.name === tools.slow) return answerSlow(res, msg.id);
      if (msg.method === 'tools/call')
        return jsonResult(res, msg.id, { content: [{ type: 'text', text: tools.quick }] });
      jsonResult(res, msg.id, {});
    });
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
    ),
  );
}
