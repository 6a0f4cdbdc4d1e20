import { useTranslations } from 'next-intl';

/** A tool's `structuredContent`: arrays of flat objects as tables, anything else as a tree. Text only. */

type Json = unknown;
const MAX_DEPTH = 8;
const MAX_ITEMS = 200;

const isPlainObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: Json) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isFlatRow = (v: Json) => isPlainObject(v) && Object.values(v).every(isScalar);

function scalarText(v: Json): string {
  return v === null ? 'null' : String(v);
}

function Table({ rows }: { rows: Array<Record<string, Json>> }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const t = useTranslations('structured');
  const shown = rows.slice(0, MAX_ITEMS);
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="border-collapse text-xs">
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c}
                scope="col"
                className="border border-zinc-200 px-2 py-1 text-left dark:border-zinc-700"
              >
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c} className="border border-zinc-200 px-2 py-1 align-top dark:border-zinc-700">
                  {c in row ? scalarText(row[c]) : ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <p className="text-xs text-zinc-500">{t('moreRows', { count: rows.length - shown.length })}</p>
      )}
    </div>
  );
}

function Value({ value, depth }: { value: Json; depth: number }) {
  if (isScalar(value)) return <span className="font-mono">{scalarText(value)}</span>;
  if (depth >= MAX_DEPTH) return <span className="text-zinc-500">…</span>;
  if (Array.isArray(value)) {
    if (value.length && value.every(isFlatRow)) return <Table rows={value as Array<Record<string, Json>>} />;
    return (
      <ol className="list-decimal space-y-0.5 pl-5">
        {value.slice(0, MAX_ITEMS).map((v, i) => (
          <li key={i}>
            <Value value={v} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  if (!isPlainObject(value)) return null;
  return (
    <ul className="space-y-0.5 border-l border-zinc-200 pl-3 dark:border-zinc-700">
      {Object.entries(value)
        .slice(0, MAX_ITEMS)
        .map(([k, v]) => (
          <li key={k}>
            <span className="font-medium">{k}</span>
            {isScalar(v) ? ': ' : ''}
            <Value value={v} depth={depth + 1} />
          </li>
        ))}
    </ul>
  );
}

export function StructuredView({ value }: { value: Record<string, Json> }) {
  return (
    <div data-tool-structured className="text-xs">
      <Value value={value} depth={0} />
    </div>
  );
}
