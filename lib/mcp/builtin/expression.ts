import 'server-only';

/**
 * Exact arithmetic on BigInt rationals. A tokenizer plus a recursive-descent parser; nothing is ever
 * handed to eval/Function. Positions in error messages are 1-based character columns.
 */

const MAX_INPUT = 1000;
const MAX_DEPTH = 100;
const MAX_EXPONENT = 10_000;
const MAX_DIGITS = 100_000;
const SIG_DIGITS = 20;

export class ExpressionError extends Error {
  override name = 'ExpressionError';
  /** `position` is the 1-based character position the error refers to. */
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

/** `fraction` is exact ("1/3", "5"); `decimal` is exact when `exact`, else rounded to 20 significant digits + "…". */
export type Evaluation = { fraction: string; decimal: string; exact: boolean };

type Q = { n: bigint; d: bigint };
type Token =
  | { kind: 'num'; value: Q; pos: number }
  | { kind: 'op' | 'ident'; text: string; pos: number }
  | { kind: 'end'; pos: number };

const abs = (x: bigint) => (x < 0n ? -x : x);
/** Lehmer's gcd: steps driven by the leading 40 bits, so huge operands need far fewer BigInt divisions. */
function gcd(x: bigint, y: bigint): bigint {
  let [a, b] = abs(x) >= abs(y) ? [abs(x), abs(y)] : [abs(y), abs(x)];
  while (b > 0xffffffffffffn) {
    const shift = BigInt(Math.max(0, a.toString(16).length * 4 - 40));
    let [u, v, A, B, C, D] = [Number(a >> shift), Number(b >> shift), 1, 0, 0, 1];
    while (v + C !== 0 && v + D !== 0) {
      const k = Math.floor((u + A) / (v + C));
      if (k !== Math.floor((u + B) / (v + D))) break;
      [A, C, B, D, u, v] = [C, A - k * C, D, B - k * D, v, u - k * v];
    }
    if (B === 0) [a, b] = [b, a % b];
    else [a, b] = [BigInt(A) * a + BigInt(B) * b, BigInt(C) * a + BigInt(D) * b];
  }
  while (b) [a, b] = [b, a % b];
  return a;
}
/** Splits x into [x / f^k, k] with k maximal, by repeated squaring of f. */
function strip(x: bigint, f: bigint): [bigint, number] {
  if (x % f !== 0n) return [x, 0];
  const [y, k] = strip(x / f, f * f);
  return y % f === 0n ? [y / f, 2 * k + 2] : [y, 2 * k + 1];
}
/** Decimal digit count: a cheap lower bound from the hex length, made exact only near the limit. */
function digitCount(x: bigint): number {
  const approx = Math.floor((abs(x).toString(16).length - 1) * 4 * Math.log10(2)) + 1;
  return approx < MAX_DIGITS - 2 ? approx : abs(x).toString().length;
}

function q(n: bigint, d: bigint, pos: number, reduce = true): Q {
  if (d === 0n) throw new ExpressionError('Division by zero', pos);
  if (d < 0n) [n, d] = [-n, -d];
  if (reduce) {
    const g = gcd(n, d);
    if (g > 1n) [n, d] = [n / g, d / g];
  }
  if (digitCount(n) > MAX_DIGITS || digitCount(d) > MAX_DIGITS)
    throw new ExpressionError(`Result exceeds ${MAX_DIGITS} digits`, pos);
  return { n, d };
}

/** log10(|x|) for x ≠ 0, accurate enough for size checks on huge values. */
function log10Abs(x: bigint): number {
  const s = abs(x).toString();
  return Math.log10(Number(s.slice(0, 15))) + Math.max(0, s.length - 15);
}

function power(base: Q, exp: Q, pos: number): Q {
  if (exp.d !== 1n) throw new ExpressionError('Exponent must be an integer', pos);
  if (abs(exp.n) > BigInt(MAX_EXPONENT))
    throw new ExpressionError(`Exponent magnitude exceeds ${MAX_EXPONENT}`, pos);
  const e = Number(exp.n);
  if (base.n === 0n) {
    if (e < 0) throw new ExpressionError('Division by zero (zero to a negative power)', pos);
    return e === 0 ? { n: 1n, d: 1n } : { n: 0n, d: 1n };
  }
  const k = Math.abs(e);
  if (Math.max(log10Abs(base.n), log10Abs(base.d)) * k > MAX_DIGITS)
    throw new ExpressionError(`Result exceeds ${MAX_DIGITS} digits`, pos);
  const [n, d] = [base.n ** BigInt(k), base.d ** BigInt(k)]; // already coprime: no reduction needed
  return e < 0 ? q(d, n, pos, false) : q(n, d, pos, false);
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s+|(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|[-+*/%^()])/y;
  let i = 0;
  while (i < src.length) {
    re.lastIndex = i;
    const m = re.exec(src);
    const pos = i + 1;
    if (!m)
      throw new ExpressionError(
        `Unexpected character "${String.fromCodePoint(src.codePointAt(i) ?? 0)}"`,
        pos,
      );
    i = re.lastIndex;
    if (m[1] !== undefined) {
      const [int = '', frac = ''] = m[1].split('.');
      const e = BigInt(m[2] ?? '0') - BigInt(frac.length);
      if (abs(e) > BigInt(MAX_EXPONENT + MAX_INPUT))
        throw new ExpressionError('Exponent in number is too large', pos);
      const mantissa = BigInt(`${int}${frac}` || '0');
      const scale = 10n ** abs(e);
      tokens.push({
        kind: 'num',
        value: e < 0n ? q(mantissa, scale, pos) : q(mantissa * scale, 1n, pos),
        pos,
      });
    } else if (m[3] !== undefined) tokens.push({ kind: 'ident', text: m[3], pos });
    else if (m[4] !== undefined) tokens.push({ kind: 'op', text: m[4], pos });
  }
  tokens.push({ kind: 'end', pos: src.length + 1 });
  return tokens;
}

function isqrt(v: bigint): bigint {
  if (v < 2n) return v;
  let x = BigInt(`1${'0'.repeat(Math.ceil(v.toString().length / 2))}`); // Newton from above: x ≥ √v
  for (let y = (x + v / x) / 2n; y < x; y = (x + v / x) / 2n) x = y;
  return x;
}

const FUNCTIONS: Record<string, (x: Q, pos: number) => Q> = {
  abs: (x) => ({ n: abs(x.n), d: x.d }),
  sqrt: (x, pos) => {
    if (x.n < 0n) throw new ExpressionError('sqrt of a negative number', pos);
    const [rn, rd] = [isqrt(x.n), isqrt(x.d)];
    if (rn * rn !== x.n || rd * rd !== x.d)
      throw new ExpressionError('sqrt is only exact for perfect squares', pos);
    return { n: rn, d: rd };
  },
};

function parse(tokens: Token[]): Q {
  let i = 0;
  let depth = 0;
  let open = 0; // parentheses currently open
  const peek = () => tokens[i] ?? { kind: 'end' as const, pos: 0 };
  const isOp = (t: Token, ...ops: string[]) => t.kind === 'op' && ops.includes(t.text);
  const nest = <T>(pos: number, fn: () => T): T => {
    if (++depth > MAX_DEPTH)
      throw new ExpressionError(`Expression nested deeper than ${MAX_DEPTH} levels`, pos);
    const result = fn();
    depth--;
    return result;
  };
  const label = (t: Token) =>
    t.kind === 'end' ? 'end of input' : t.kind === 'num' ? 'number' : `"${t.text}"`;

  function binary(minPrec: number): Q {
    let left = unary();
    for (;;) {
      const t = peek();
      const prec = isOp(t, '+', '-') ? 1 : isOp(t, '*', '/', '%') ? 2 : 0;
      if (prec === 0 || prec < minPrec || t.kind !== 'op') return left;
      i++;
      const right = binary(prec + 1);
      left = apply(t.text, left, right, t.pos);
    }
  }
  function unary(): Q {
    const t = peek();
    if (isOp(t, '-', '+')) {
      i++;
      const v = nest(t.pos, unary);
      return isOp(t, '-') ? { n: -v.n, d: v.d } : v;
    }
    const base = primary();
    const op = peek();
    if (!isOp(op, '^', '**')) return base;
    i++;
    return power(base, nest(op.pos, unary), op.pos); // right-associative; exponent may carry a sign
  }
  function primary(): Q {
    const t = tokens[i++] ?? peek();
    if (t.kind === 'num') return t.value;
    if (isOp(t, '(')) return group(t);
    if (t.kind === 'ident') {
      const fn = Object.hasOwn(FUNCTIONS, t.text) ? FUNCTIONS[t.text] : undefined;
      if (!fn)
        throw new ExpressionError(`Unknown identifier "${t.text}" (only abs and sqrt are supported)`, t.pos);
      const open = tokens[i++] ?? peek();
      if (!isOp(open, '(')) throw new ExpressionError(`Expected "(" after ${t.text}`, open.pos);
      return fn(group(open), t.pos);
    }
    if (isOp(t, ')') && !open) throw new ExpressionError('Unbalanced parentheses: unexpected ")"', t.pos);
    throw new ExpressionError(`Expected a number but found ${label(t)}`, t.pos);
  }
  function group(paren: Token): Q {
    open++;
    const v = nest(paren.pos, () => binary(1));
    const close = peek();
    if (!isOp(close, ')')) {
      if (close.kind === 'end')
        throw new ExpressionError('Unbalanced parentheses: "(" is never closed', paren.pos);
      throw new ExpressionError(`Expected ")" but found ${label(close)}`, close.pos);
    }
    i++;
    open--;
    return v;
  }

  const result = binary(1);
  const rest = peek();
  if (rest.kind !== 'end') {
    if (isOp(rest, ')')) throw new ExpressionError('Unbalanced parentheses: unexpected ")"', rest.pos);
    throw new ExpressionError(`Unexpected ${label(rest)}`, rest.pos);
  }
  return result;
}

function apply(op: string, a: Q, b: Q, pos: number): Q {
  if (op === '+' || op === '-') return q(a.n * b.d + (op === '+' ? b.n : -b.n) * a.d, a.d * b.d, pos);
  if (op === '*') return q(a.n * b.n, a.d * b.d, pos);
  if (b.n === 0n)
    throw new ExpressionError(op === '%' ? 'Division by zero (modulo)' : 'Division by zero', pos);
  if (op === '/') return q(a.n * b.d, a.d * b.n, pos);
  // '%' is truncated like JavaScript's: the sign of the result follows the dividend.
  if (a.d !== 1n || b.d !== 1n) throw new ExpressionError('% is only defined for integers', pos);
  return { n: a.n % b.n, d: 1n };
}

function toDecimal({ n, d }: Q): { decimal: string; exact: boolean } {
  const sign = n < 0n ? '-' : '';
  const m = abs(n);
  const [odd, twos] = strip(d, 2n);
  const [rest, fives] = strip(odd, 5n);
  const places = Math.max(twos, fives);
  if (rest === 1n && places <= MAX_DIGITS) {
    const digits = ((m * 10n ** BigInt(places)) / d).toString().padStart(places + 1, '0');
    const cut = digits.length - places;
    const frac = digits.slice(cut).replace(/0+$/, '');
    return { decimal: `${sign}${digits.slice(0, cut)}${frac ? `.${frac}` : ''}`, exact: true };
  }
  // Non-terminating: find e with 10^e ≤ m/d < 10^(e+1), then round to SIG_DIGITS significant digits.
  let e = Math.floor(log10Abs(m) - log10Abs(d));
  const below = (k: number) => (k >= 0 ? m < d * 10n ** BigInt(k) : m * 10n ** BigInt(-k) < d);
  while (below(e)) e--;
  while (!below(e + 1)) e++;
  const shift = SIG_DIGITS - 1 - e;
  const [num, den] = shift >= 0 ? [m * 10n ** BigInt(shift), d] : [m, d * 10n ** BigInt(-shift)];
  let digits = ((2n * num + den) / (2n * den)).toString(); // round half up
  if (digits.length > SIG_DIGITS) [digits, e] = [digits.slice(0, SIG_DIGITS), e + 1];
  let text: string;
  if (e > 20 || e < -10) text = `${digits[0]}.${digits.slice(1)}e${e >= 0 ? '+' : ''}${e}`;
  else if (e < 0) text = `0.${'0'.repeat(-e - 1)}${digits}`;
  else
    text =
      e + 1 >= SIG_DIGITS ? digits.padEnd(e + 1, '0') : `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
  return { decimal: `${sign}${text}…`, exact: false };
}

/** Evaluates an arithmetic expression exactly. Throws ExpressionError on any invalid input. */
export function evaluate(expression: string): Evaluation {
  if (expression.length > MAX_INPUT)
    throw new ExpressionError(`Expression is longer than ${MAX_INPUT} characters`, MAX_INPUT + 1);
  if (!expression.trim()) throw new ExpressionError('Empty expression', 1);
  const value = parse(tokenize(expression));
  return { fraction: value.d === 1n ? value.n.toString() : `${value.n}/${value.d}`, ...toDecimal(value) };
}
