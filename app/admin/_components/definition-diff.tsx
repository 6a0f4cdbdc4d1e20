'use client';

type Definition = { description: string; inputSchema: object };
type Line = { kind: ' ' | '-' | '+'; text: string };

/** Above this many LCS cells, show the whole old text removed and the whole new text added. */
const MAX_CELLS = 4_000_000;

/** A line diff from the longest common subsequence of the two line lists. */
function diffLines(a: string[], b: string[]): Line[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((text) => ({ kind: '-' as const, text })),
      ...b.map((text) => ({ kind: '+' as const, text })),
    ];
  }
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push({ kind: '-', text: a[i++]! });
    } else {
      out.push({ kind: '+', text: b[j++]! });
    }
  }
  while (i < n) out.push({ kind: '-', text: a[i++]! });
  while (j < m) out.push({ kind: '+', text: b[j++]! });
  return out;
}

const LINE_CLASS: Record<Line['kind'], string> = {
  ' ': 'text-zinc-600 dark:text-zinc-400',
  '-': 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-300',
  '+': 'bg-green-50 text-green-800 dark:bg-green-950 dark:text-green-300',
};

function DiffBlock({ label, before, after }: { label: string; before: string; after: string }) {
  const lines = diffLines(before.split('\n'), after.split('\n'));
  const same = lines.every((l) => l.kind === ' ');
  return (
    <div>
      <p className="text-xs font-medium text-zinc-500">
        {label}
        {same && ' (unchanged)'}
      </p>
      {!same && (
        <pre className="mt-1 max-h-96 overflow-auto rounded border border-zinc-200 bg-white py-1 text-xs dark:border-zinc-700 dark:bg-zinc-950">
          {lines.map((line, index) => (
            <span
              key={index}
              data-diff-line={line.kind === ' ' ? 'same' : line.kind === '-' ? 'removed' : 'added'}
              className={`block whitespace-pre-wrap break-words px-2 ${LINE_CLASS[line.kind]}`}
            >
              {line.kind} {line.text}
            </span>
          ))}
        </pre>
      )}
    </div>
  );
}

/** What changed in a tool's definition since the admin last reviewed it: description and input schema, as plain-text line diffs. */
export function DefinitionDiff({ previous, current }: { previous: Definition; current: Definition }) {
  return (
    <div data-definition-diff className="space-y-2">
      <DiffBlock label="Description" before={previous.description} after={current.description} />
      <DiffBlock
        label="Input schema"
        before={JSON.stringify(previous.inputSchema, null, 2)}
        after={JSON.stringify(current.inputSchema, null, 2)}
      />
    </div>
  );
}
