import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createCalculatorServer } from '@/lib/mcp/builtin/calculator';
import { createTimeServer } from '@/lib/mcp/builtin/time';

const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function connect(server: McpServer): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  clients.push(client);
  return client;
}

type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return { ...result, text: first?.text ?? '' };
}

test('calculator: server info and tool listing', async () => {
  const client = await connect(createCalculatorServer());
  assert.deepEqual(client.getServerVersion(), { name: 'calculator', version: '1.0.0' });
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ['evaluate'],
  );
  const tool = tools[0]!;
  assert.match(tool.description ?? '', /exact/i);
  assert.deepEqual(tool.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  assert.deepEqual(tool.inputSchema.required, ['expression']);
  assert.deepEqual(Object.keys(tool.outputSchema?.properties ?? {}).sort(), ['decimal', 'exact', 'fraction']);
});

test('calculator: results as text and structured content', async () => {
  const client = await connect(createCalculatorServer());
  const sum = await call(client, 'evaluate', { expression: '0.1 + 0.2' });
  assert.equal(sum.isError, undefined);
  assert.equal(sum.text, '0.1 + 0.2 = 0.3 (= 3/10)');
  assert.deepEqual(sum.structuredContent, { fraction: '3/10', decimal: '0.3', exact: true });

  const third = await call(client, 'evaluate', { expression: '1/3' });
  assert.equal(third.text, '1/3 = 1/3 ≈ 0.33333333333333333333…');
  assert.deepEqual(third.structuredContent, {
    fraction: '1/3',
    decimal: '0.33333333333333333333…',
    exact: false,
  });

  const power = await call(client, 'evaluate', { expression: ' 2^100 ' });
  assert.equal(power.text, '2^100 = 1267650600228229401496703205376');
  assert.equal((await call(client, 'evaluate', { expression: '2^-2' })).text, '2^-2 = 0.25 (= 1/4)');
});

test('calculator: errors become isError results', async () => {
  const client = await connect(createCalculatorServer());
  const zero = await call(client, 'evaluate', { expression: '1/0' });
  assert.equal(zero.isError, true);
  assert.equal(zero.text, 'Cannot evaluate: Division by zero at position 2');
  for (const expression of ['process.exit(1)', 'constructor', '(1', '', 'sqrt(2)']) {
    const result = await call(client, 'evaluate', { expression });
    assert.equal(result.isError, true, expression);
    assert.match(result.text, /^Cannot evaluate: /, expression);
    assert.equal(result.structuredContent, undefined);
  }
  const missing = await call(client, 'evaluate', {});
  assert.equal(missing.isError, true);
});

const FIXED = new Date('2024-03-10T06:30:00.000Z'); // 01:30 EST, half an hour before New York springs forward

test('time: tool listing', async () => {
  const client = await connect(createTimeServer(() => FIXED));
  assert.equal(client.getServerVersion()?.name, 'time');
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ['convert', 'now']);
  for (const tool of tools) assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
  assert.deepEqual(
    tools
      .find((t) => t.name === 'convert')
      ?.inputSchema.required?.slice()
      .sort(),
    ['from', 'time', 'to'],
  );
});

test('time: now defaults to UTC and honours a zone', async () => {
  const client = await connect(createTimeServer(() => FIXED));
  const utc = await call(client, 'now', {});
  assert.deepEqual(utc.structuredContent, {
    iso: '2024-03-10T06:30:00.000Z',
    timeZone: 'UTC',
    local: 'Sun, Mar 10, 2024, 06:30:00 UTC',
    utcOffset: '+00:00',
  });
  assert.match(utc.text, /2024-03-10T06:30:00\.000Z/);

  const ny = await call(client, 'now', { timeZone: 'America/New_York' });
  assert.deepEqual(ny.structuredContent, {
    iso: '2024-03-10T06:30:00.000Z',
    timeZone: 'America/New_York',
    local: 'Sun, Mar 10, 2024, 01:30:00 EST',
    utcOffset: '-05:00',
  });
  assert.match(ny.text, /01:30:00 EST/);
  const kolkata = await call(client, 'now', { timeZone: 'Asia/Kolkata' });
  assert.equal(kolkata.structuredContent?.utcOffset, '+05:30');
});

test('time: convert wall-clock times between zones', async () => {
  const client = await connect(createTimeServer(() => FIXED));
  const summer = await call(client, 'convert', {
    time: '2024-07-01 12:00',
    from: 'Europe/London',
    to: 'Asia/Tokyo',
  });
  assert.equal(summer.isError, undefined);
  assert.deepEqual(summer.structuredContent, {
    from: { timeZone: 'Europe/London', local: 'Mon, Jul 1, 2024, 12:00:00 GMT+1', utcOffset: '+01:00' },
    to: { timeZone: 'Asia/Tokyo', local: 'Mon, Jul 1, 2024, 20:00:00 GMT+9', utcOffset: '+09:00' },
    iso: '2024-07-01T11:00:00.000Z',
  });
  const winter = await call(client, 'convert', {
    time: '2024-01-15T09:30',
    from: 'America/Los_Angeles',
    to: 'Europe/Berlin',
  });
  assert.equal(winter.structuredContent?.iso, '2024-01-15T17:30:00.000Z');
  assert.match(winter.text, /18:30:00/);
});

test('time: explicit offsets win over "from"; DST gaps and overlaps are resolved', async () => {
  const client = await connect(createTimeServer(() => FIXED));
  const zulu = await call(client, 'convert', {
    time: '2024-07-01T12:00:00Z',
    from: 'Asia/Tokyo',
    to: 'America/New_York',
  });
  assert.equal(zulu.structuredContent?.iso, '2024-07-01T12:00:00.000Z');
  assert.deepEqual(zulu.structuredContent?.from, {
    timeZone: 'UTC',
    local: 'Mon, Jul 1, 2024, 12:00:00 UTC',
    utcOffset: '+00:00',
  });
  const offset = await call(client, 'convert', {
    time: '2024-07-01T12:00:00+05:30',
    from: 'ignored',
    to: 'UTC',
  });
  assert.equal(offset.structuredContent?.iso, '2024-07-01T06:30:00.000Z');

  const gap = await call(client, 'convert', {
    time: '2024-03-10 02:30',
    from: 'America/New_York',
    to: 'UTC',
  });
  assert.equal(gap.structuredContent?.iso, '2024-03-10T07:30:00.000Z');
  assert.match(gap.text, /does not exist/);
  const overlap = await call(client, 'convert', {
    time: '2024-11-03 01:30',
    from: 'America/New_York',
    to: 'UTC',
  });
  assert.equal(overlap.structuredContent?.iso, '2024-11-03T05:30:00.000Z');
  assert.match(overlap.text, /occurs twice/);
});

test('time: offsets stay right across the start of the Common Era (local mean time with seconds)', async () => {
  const client = await connect(createTimeServer(() => FIXED));
  const early = await call(client, 'convert', {
    time: '0001-01-01 00:00',
    from: 'UTC',
    to: 'America/St_Johns',
  });
  assert.equal(early.structuredContent?.iso, '0001-01-01T00:00:00.000Z');
  const to = early.structuredContent?.to as { utcOffset?: string } | undefined;
  assert.equal(
    to?.utcOffset,
    '-03:30:52',
    'the day before in the zone falls in 1 BC; the offset is still its own',
  );
});

test('time: invalid zones and times are isError results', async () => {
  const client = await connect(createTimeServer(() => FIXED));
  const mars = await call(client, 'now', { timeZone: 'Mars/Base' });
  assert.equal(mars.isError, true);
  assert.match(mars.text, /^Unknown time zone "Mars\/Base"/);
  const cases: [Record<string, string>, RegExp][] = [
    [{ time: '2024-07-01 12:00', from: 'Mars/Base', to: 'UTC' }, /Unknown time zone "Mars\/Base"/],
    [{ time: '2024-07-01 12:00', from: 'UTC', to: 'Nowhere/City' }, /Unknown time zone "Nowhere\/City"/],
    [{ time: 'tomorrow at noon', from: 'UTC', to: 'UTC' }, /Unrecognized time/],
    [{ time: '2024-02-30 10:00', from: 'UTC', to: 'UTC' }, /Invalid date or time/],
    [{ time: '2024-01-01 24:00', from: 'UTC', to: 'UTC' }, /Invalid date or time/],
    [{ time: '2024-01-01T10:00+25:00', from: 'UTC', to: 'UTC' }, /Invalid UTC offset/],
  ];
  for (const [args, message] of cases) {
    const result = await call(client, 'convert', args);
    assert.equal(result.isError, true, args.time);
    assert.match(result.text, message, args.time);
  }
});
