/** Token counts of an answer, as the AI SDK reports them (a provider may leave any of them out). */
export type Usage = { inputTokens?: number; outputTokens?: number; totalTokens?: number };
/** What 1M input and 1M output tokens of a model cost, in USD (set by an admin per model). */
export type ModelPrice = { input: number; output: number };

/** The cost of an answer in USD; undefined without a price or without token counts. */
export function costOf(usage: Usage | undefined, price: ModelPrice | undefined): number | undefined {
  if (!usage || !price) return undefined;
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const cost = ((inputTokens ?? 0) * price.input + (outputTokens ?? 0) * price.output) / 1_000_000;
  // Rounded to a millionth of a dollar: sums of many answers stay free of float noise.
  return Math.round(cost * 1e6) / 1e6;
}

export type UsageTotals = {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Only when at least one answer had a cost. */
  cost?: number;
  answers: number;
};

/** Per-conversation totals from the answers' stored usage and cost. */
export function sumUsage(items: Array<{ usage?: Usage; cost?: number } | undefined>): UsageTotals {
  const totals: UsageTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, answers: 0 };
  for (const item of items) {
    const u = item?.usage;
    if (!u) continue;
    totals.answers++;
    totals.inputTokens += u.inputTokens ?? 0;
    totals.outputTokens += u.outputTokens ?? 0;
    totals.totalTokens += u.totalTokens ?? (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
    if (item.cost !== undefined) totals.cost = Math.round(((totals.cost ?? 0) + item.cost) * 1e6) / 1e6;
  }
  return totals;
}

/** A cost for people: `$0.0123`, small amounts with enough digits to be non-zero. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd >= 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(6).replace(/0+$/, '')}`;
}

type Prices = Record<string, ModelPrice>;

/** `model: input, output` per line (USD per 1M tokens) into `{ model: { input, output } }`; else the bad line. */
export function parsePrices(text: string): { value: Prices } | { line: number } {
  const value: Prices = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const at = line.lastIndexOf(':');
    const model = line.slice(0, at).trim();
    const numbers = line
      .slice(at + 1)
      .split(',')
      .map((v) => v.trim());
    const [input, output] = numbers.map(Number);
    const ok = (n: number | undefined) => n !== undefined && Number.isFinite(n) && n >= 0;
    if (at <= 0 || !model || numbers.length !== 2 || numbers.some((n) => !n) || !ok(input) || !ok(output))
      return { line: i + 1 };
    value[model] = { input: input as number, output: output as number };
  }
  return { value };
}

export const pricesText = (p: Prices) =>
  Object.entries(p)
    .map(([model, { input, output }]) => `${model}: ${input}, ${output}`)
    .join('\n');
