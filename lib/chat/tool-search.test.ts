import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import {
  catalogSize,
  createToolSearch,
  loadedInAnswer,
  rankTools,
  runSearch,
  SEARCH_TOOL,
  SearchInputSchema,
  type SearchOutput,
  words,
} from '@/lib/chat/tool-search';
import type { ToolEntry } from '@/lib/chat/tools';
import type { ChatMessage } from '@/lib/schemas/chat';
import { estimateToolTokens } from '@/lib/schemas/tool-budget';

const entry = (server: string, name: string, description: string, schema: object = {}): ToolEntry => ({
  exposed: `${server}__${name}`,
  server,
  tool: { name, description, inputSchema: { type: 'object', ...schema } },
  approval: 'auto',
});

const CATALOG = [
  entry('weather', 'get_forecast', 'Get the weather forecast for a city.'),
  entry('billing', 'create_invoice', 'Create an invoice for a customer.'),
  entry('billing', 'list_invoices', 'List the invoices of a customer, newest first.'),
  entry('cal', 'add_event', 'Add an event to the calendar.'),
  entry('cal', 'weatherProof', 'Check whether an outdoor event is safe.'),
  entry('docs', 'search_docs', '在文档中搜索天气相关内容'),
];

const toolkitOf = (entries: ToolEntry[]) => {
  const tools: ToolSet = {};
  for (const e of entries)
    tools[e.exposed] = dynamicTool({
      description: e.tool.description ?? '',
      inputSchema: jsonSchema({ type: 'object' }),
      execute: async () => ({ content: [] }),
    });
  return { tools, entries: new Map(entries.map((e) => [e.exposed, e])) };
};

const manyTools = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    entry('many', `widget_${String(i + 1).padStart(4, '0')}`, `Widget ${i}`),
  );

describe('mode decision', () => {
  test('counts the tools and their schema tokens the way the composer does', () => {
    const size = catalogSize(CATALOG);
    assert.equal(size.count, CATALOG.length);
    assert.equal(
      size.tokens,
      CATALOG.reduce((sum, e) => sum + estimateToolTokens(e.tool), 0),
    );
  });

  test('under both bounds: off, every tool is sent as it is', () => {
    const toolkit = toolkitOf(manyTools(40));
    assert.equal(createToolSearch(toolkit, { maxTools: 40, maxTokens: 100_000 }, []), undefined);
    assert.equal(createToolSearch(toolkit, undefined, []), undefined);
  });

  test('over the tool count: on, and the first step sees only the search tool', () => {
    const toolkit = toolkitOf(manyTools(41));
    const search = createToolSearch(toolkit, { maxTools: 40, maxTokens: 100_000 }, []);
    assert.ok(search);
    assert.deepEqual(search.activeTools(), [SEARCH_TOOL]);
    // Every MCP tool stays in the ToolSet, so approvals and policies work for the ones found.
    assert.equal(Object.keys(search.tools).length, 42);
    assert.ok(search.tools[SEARCH_TOOL]);
  });

  test('over the token budget with few tools: on', () => {
    const big = entry('big', 'huge', 'x'.repeat(50_000));
    const search = createToolSearch(toolkitOf([big]), { maxTools: 40, maxTokens: 10_000 }, []);
    assert.ok(search);
  });
});

describe('ranking', () => {
  const names = (query: string) => rankTools(CATALOG, query).map((e) => e.exposed);

  test('a name word outranks a description word; ties keep the catalog order', () => {
    assert.deepEqual(names('weather'), ['cal__weatherProof', 'weather__get_forecast']);
    assert.deepEqual(names('invoice'), ['billing__create_invoice', 'billing__list_invoices']);
  });

  test('more matching words rank higher', () => {
    assert.equal(names('list customer invoices')[0], 'billing__list_invoices');
    assert.equal(names('calendar event add')[0], 'cal__add_event');
  });

  test("a server's name finds its tools", () => {
    assert.deepEqual(names('billing'), ['billing__create_invoice', 'billing__list_invoices']);
  });

  test('the exact tool name ranks first', () => {
    assert.equal(names('add_event')[0], 'cal__add_event');
    assert.equal(names('cal__weatherProof')[0], 'cal__weatherProof');
  });

  test('parts of words and non-Latin text match too', () => {
    assert.deepEqual(names('calend'), ['cal__add_event']);
    assert.deepEqual(names('天气'), ['docs__search_docs']);
  });

  test('stop words alone match nothing; the order is deterministic', () => {
    assert.deepEqual(names('the tools for me'), []);
    assert.deepEqual(names('event invoice weather'), names('event invoice weather'));
  });

  test('words() splits camelCase and snake_case and drops a plural s', () => {
    assert.deepEqual(words('listInvoices get_forecast Queries'), [
      'list',
      'invoice',
      'get',
      'forecast',
      'query',
    ]);
  });
});

describe('search tool', () => {
  const entries = () => new Map(CATALOG.map((e) => [e.exposed, e]));

  test('returns name, server and description of the matches, and loads them', () => {
    const loaded = new Set<string>();
    const out = runSearch(entries(), loaded, 'invoice', 5);
    assert.deepEqual(out.tools, [
      {
        name: 'billing__create_invoice',
        server: 'billing',
        description: 'Create an invoice for a customer.',
      },
      {
        name: 'billing__list_invoices',
        server: 'billing',
        description: 'List the invoices of a customer, newest first.',
      },
    ]);
    assert.equal(out.total, CATALOG.length);
    assert.deepEqual([...loaded], ['billing__create_invoice', 'billing__list_invoices']);
  });

  test('the limit caps what is returned and loaded; searches add up', () => {
    const loaded = new Set<string>();
    assert.equal(runSearch(entries(), loaded, 'invoice', 1).tools.length, 1);
    runSearch(entries(), loaded, 'forecast', 5);
    assert.deepEqual([...loaded], ['billing__create_invoice', 'weather__get_forecast']);
  });

  test('a query that matches nothing says what to try, and loads nothing', () => {
    const loaded = new Set<string>();
    const out = runSearch(entries(), loaded, 'quantum teleporter', 5);
    assert.deepEqual(out.tools, []);
    assert.equal(loaded.size, 0);
    assert.match(out.note, /No tool matched "quantum teleporter"/);
    assert.match(out.note, /weather, billing, cal, docs/);
  });

  test('the input is validated: a query is required, the limit is 1–20', () => {
    assert.ok(SearchInputSchema.safeParse({ query: 'x', limit: 20 }).success);
    assert.ok(!SearchInputSchema.safeParse({ query: '' }).success);
    assert.ok(!SearchInputSchema.safeParse({ query: 'x', limit: 21 }).success);
    assert.ok(!SearchInputSchema.safeParse({ query: 'x', limit: 0 }).success);
  });

  test('executing the tool through createToolSearch loads the found tools into the next steps', async () => {
    const toolkit = toolkitOf([...CATALOG, ...manyTools(50)]);
    const search = createToolSearch(toolkit, { maxTools: 40, maxTokens: 100_000 }, []);
    assert.ok(search);
    const tool = search.tools[SEARCH_TOOL];
    const out = (await tool?.execute?.({ query: 'forecast' }, {
      toolCallId: 'c1',
      messages: [],
    } as never)) as SearchOutput;
    assert.equal(out.tools[0]?.name, 'weather__get_forecast');
    assert.deepEqual(search.activeTools(), [SEARCH_TOOL, 'weather__get_forecast']);
  });

  test('an answer continued after approvals keeps the tools its earlier searches loaded', () => {
    const toolkit = toolkitOf([...CATALOG, ...manyTools(50)]);
    const output: SearchOutput = {
      query: 'invoice',
      total: 56,
      tools: [
        { name: 'billing__create_invoice', server: 'billing', description: '' },
        { name: 'gone__tool', server: 'gone', description: '' },
      ],
      note: '',
    };
    const answer: ChatMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [
        {
          type: 'dynamic-tool',
          toolName: SEARCH_TOOL,
          toolCallId: 'c1',
          state: 'output-available',
          input: {},
          output,
        },
      ],
    };
    assert.deepEqual(loadedInAnswer(answer, toolkit.entries), ['billing__create_invoice']);
    const search = createToolSearch(toolkit, { maxTools: 40, maxTokens: 100_000 }, [answer]);
    assert.deepEqual(search?.activeTools(), [SEARCH_TOOL, 'billing__create_invoice']);
    // A new user message starts a new turn: nothing loaded.
    const user: ChatMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    const fresh = createToolSearch(toolkit, { maxTools: 40, maxTokens: 100_000 }, [answer, user]);
    assert.deepEqual(fresh?.activeTools(), [SEARCH_TOOL]);
  });
});
