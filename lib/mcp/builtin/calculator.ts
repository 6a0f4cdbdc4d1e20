import 'server-only';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from '@/lib/zod';
import { evaluate } from '@/lib/mcp/builtin/expression';

const DESCRIPTION = [
  'Evaluate an arithmetic expression with exact rational arithmetic (no floating-point error: 0.1 + 0.2 is exactly 0.3).',
  'Syntax: integers and decimals (12, 0.5, .5, 1e3, 2.5e-3), + - * /, % (integers only), ^ or ** for integer powers',
  '(right-associative, negative exponents allowed), unary minus, parentheses, abs(x), and sqrt(x) for perfect squares.',
  'Returns the exact fraction and its decimal; non-terminating decimals are rounded to 20 significant digits and marked with "…".',
].join(' ');

/** Built-in MCP server exposing one exact-arithmetic tool. */
export function createCalculatorServer(): McpServer {
  const server = new McpServer({ name: 'calculator', version: '1.0.0' });
  server.registerTool(
    'evaluate',
    {
      title: 'Calculator',
      description: DESCRIPTION,
      inputSchema: { expression: z.string().describe('The expression, e.g. "(1/3 + 0.25) * 2^10"') },
      outputSchema: {
        fraction: z.string().describe('Exact value as a reduced fraction, e.g. "1/3" or "5"'),
        decimal: z.string().describe('Decimal value; ends with "…" when rounded'),
        exact: z.boolean().describe('Whether the decimal is exact'),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ expression }) => {
      try {
        const result = evaluate(expression);
        const shown = expression.trim();
        const text = result.exact
          ? `${shown} = ${result.decimal}${result.fraction === result.decimal ? '' : ` (= ${result.fraction})`}`
          : `${shown} = ${result.fraction} ≈ ${result.decimal}`;
        return { content: [{ type: 'text', text }], structuredContent: { ...result } };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { isError: true, content: [{ type: 'text', text: `Cannot evaluate: ${message}` }] };
      }
    },
  );
  return server;
}
