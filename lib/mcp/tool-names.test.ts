import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { exposeToolNames, MCP_TOOL_NAME, type ToolRef } from '@/lib/mcp/tool-names';

const EXPOSED = /^[a-zA-Z0-9_-]{1,64}$/;

/** Every exposed name is API-safe and maps back to exactly the refs that were accepted. */
function checkTable(refs: ToolRef[], result: ReturnType<typeof exposeToolNames>): void {
  for (const name of result.byExposed.keys()) assert.match(name, EXPOSED);
  const accepted = [...result.byExposed.values()];
  assert.equal(accepted.length + result.rejected.length, refs.length);
  for (const ref of refs) {
    const hits = accepted.filter((r) => r.server === ref.server && r.tool === ref.tool).length;
    const rejected = result.rejected.some((r) => r.server === ref.server && r.tool === ref.tool);
    assert.equal(
      hits + (rejected ? 1 : 0),
      1,
      `${ref.server}/${ref.tool} is either exposed once or rejected`,
    );
  }
}
const nameOf = (result: ReturnType<typeof exposeToolNames>, server: string, tool: string) =>
  [...result.byExposed].find(([, r]) => r.server === server && r.tool === tool)?.[0];

describe('exposeToolNames', () => {
  test('plain names are server__tool', () => {
    const refs = [
      { server: 'files', tool: 'read' },
      { server: 'git', tool: 'read' },
    ];
    const result = exposeToolNames(refs);
    checkTable(refs, result);
    assert.deepEqual([...result.byExposed.keys()], ['files__read', 'git__read']);
    assert.deepEqual(result.byExposed.get('git__read'), { server: 'git', tool: 'read' });
  });

  test('names that sanitise to the same string stay distinct', () => {
    const refs = [
      { server: 'a', tool: 'b.c' },
      { server: 'a', tool: 'b_c' },
      { server: 'a_', tool: '_b' },
      { server: 'a', tool: '__b' },
    ];
    const result = exposeToolNames(refs);
    checkTable(refs, result);
    assert.equal(result.rejected.length, 0);
    assert.equal(result.byExposed.size, 4);
    assert.equal(nameOf(result, 'a', 'b.c'), 'a__b_c');
    assert.notEqual(nameOf(result, 'a', 'b_c'), 'a__b_c');
    assert.match(nameOf(result, 'a', 'b_c') ?? '', /^a__b_c_[a-zA-Z0-9]{1,6}$/);
  });

  test('long names are shortened with a stable hash suffix and stay unique', () => {
    const stem = 'x'.repeat(100);
    const refs = [
      { server: 'server-with-a-long-name', tool: `${stem}_one` },
      { server: 'server-with-a-long-name', tool: `${stem}_two` },
      { server: 's', tool: 'y'.repeat(128) },
    ];
    const result = exposeToolNames(refs);
    checkTable(refs, result);
    assert.equal(result.byExposed.size, 3);
    const names = refs.map((r) => nameOf(result, r.server, r.tool) ?? '');
    for (const name of names) assert.ok(name.length <= 64 && name.length > 57, name);
    assert.ok(names[0]?.startsWith('server-with-a-long-name__xxx'));
    assert.notEqual(names[0], names[1]);

    // Same input, any order, another call: same names.
    const again = exposeToolNames([...refs].reverse());
    for (const ref of refs)
      assert.equal(nameOf(again, ref.server, ref.tool), nameOf(result, ref.server, ref.tool));
  });

  test('invalid MCP tool names are rejected with a reason', () => {
    const bad = ['has space', 'z'.repeat(300), 'еcho' /* Cyrillic е */, '', 'semi;colon', 'slash/name'];
    const refs = [...bad.map((tool) => ({ server: 's', tool })), { server: 's', tool: 'echo' }];
    const result = exposeToolNames(refs);
    checkTable(refs, result);
    assert.deepEqual(
      result.rejected.map((r) => r.tool),
      bad,
    );
    for (const r of result.rejected) assert.match(r.reason, /tool name/);
    assert.deepEqual([...result.byExposed.keys()], ['s__echo']);
    assert.ok(MCP_TOOL_NAME.test('a'.repeat(128)) && !MCP_TOOL_NAME.test('a'.repeat(129)));
  });

  test('a large mixed catalog: every exposed name is valid and maps back', () => {
    const refs: ToolRef[] = [];
    for (const server of ['a', 'a_', 'b-c', 'b_c', 'x'.repeat(32)]) {
      for (const tool of [
        't',
        't.1',
        't_1',
        't-1',
        '_t',
        'T',
        `${'q'.repeat(60)}.${server.length}`,
        'q'.repeat(128),
      ])
        refs.push({ server, tool });
    }
    const result = exposeToolNames(refs);
    checkTable(refs, result);
    assert.equal(result.rejected.length, 0);
    assert.equal(result.byExposed.size, refs.length);
  });
});
