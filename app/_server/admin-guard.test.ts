import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

/** Every file named `name` below `dir`. */
function find(dir: string, name: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name === name)
    .map((e) => join(e.parentPath, e.name));
}

/** The source of each exported handler, so a check inside a helper elsewhere does not count. */
const exportsOf = (source: string) => source.split(/\nexport const /).slice(1);

test("A1: every admin page checks the role itself, before it loads anything (the layout cannot keep a page's data out)", () => {
  const pages = find('app/admin', 'page.tsx');
  assert.ok(pages.length >= 5, `found ${pages.length} admin pages`);
  for (const page of pages) {
    const source = readFileSync(page, 'utf8');
    const body = source.slice(source.indexOf('export default'));
    if (/^\s*redirect\('\/admin\/[a-z]+'\);$/m.test(body) && !body.includes('getDb(')) continue; // the /admin index only redirects
    // The function body starts after the parameter list's closing parenthesis (which may span lines).
    const statements = body
      .slice(body.indexOf('{\n', body.search(/\)(: [^{]+)? \{\n/)) + 2)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    assert.match(
      statements[0] ?? '',
      /^(const \w+ = )?await requireAdminPage\(\);$/,
      `${page}: the first statement must be the role check`,
    );
  }
});

test('A1: every admin API handler starts with requireAdmin', () => {
  const routes = [...find('app/api/admin', 'route.ts'), ...find('app/api/mcp/servers', 'route.ts')];
  assert.ok(routes.length >= 15, `found ${routes.length} admin routes`);
  for (const file of routes) {
    for (const handler of exportsOf(readFileSync(file, 'utf8')).filter((e) =>
      /^(GET|POST|PATCH|PUT|DELETE)\b/.test(e),
    )) {
      const firstStatement = handler.split('\n')[1]?.trim() ?? '';
      assert.match(
        firstStatement,
        /^const \w+ = await requireAdmin\(req\);|^await requireAdmin\(req\);/,
        `${file}: ${handler.split('=')[0]}`,
      );
    }
  }
});
