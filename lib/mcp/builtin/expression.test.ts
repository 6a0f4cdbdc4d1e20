import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExpressionError, evaluate } from '@/lib/mcp/builtin/expression';

const value = (expression: string) => evaluate(expression).decimal;
function rejects(expression: string, message: RegExp, position?: number) {
  assert.throws(
    () => evaluate(expression),
    (error: unknown) => {
      assert.ok(
        error instanceof ExpressionError,
        `${expression}: expected ExpressionError, got ${String(error)}`,
      );
      assert.match(error.message, message, expression);
      if (position !== undefined) assert.equal(error.position, position, `${expression}: position`);
      return true;
    },
  );
}

test('examples from the spec', () => {
  assert.deepEqual(evaluate('0.1 + 0.2'), { fraction: '3/10', decimal: '0.3', exact: true });
  assert.deepEqual(evaluate('1/3'), { fraction: '1/3', decimal: '0.33333333333333333333…', exact: false });
  assert.equal(value('2^100'), '1267650600228229401496703205376');
  assert.equal(value('-(3 - 5) * 2'), '4');
  assert.equal(value('2^-2'), '0.25');
  assert.equal(value('7 % 3'), '1');
});

test('number literals become exact rationals', () => {
  assert.equal(evaluate('0.1').fraction, '1/10');
  assert.equal(evaluate('.5').fraction, '1/2');
  assert.equal(evaluate('5.').fraction, '5');
  assert.equal(value('1e3'), '1000');
  assert.equal(value('1E+3'), '1000');
  assert.equal(evaluate('2.5e-3').fraction, '1/400');
  assert.equal(value('2.5e-3'), '0.0025');
  assert.equal(value('007'), '7');
  assert.equal(value('123456789012345678901234567890 + 1'), '123456789012345678901234567891');
});

test('precedence and associativity', () => {
  assert.equal(value('1 + 2 * 3'), '7');
  assert.equal(value('(1 + 2) * 3'), '9');
  assert.equal(value('10 - 4 - 3'), '3');
  assert.equal(value('100 / 10 / 5'), '2');
  assert.equal(value('2 * 3 % 4'), '2');
  assert.equal(value('1 + 7 % 4 * 2'), '7');
  assert.equal(value('2^3^2'), '512');
  assert.equal(value('2**3**2'), '512');
  assert.equal(value('(2^3)^2'), '64');
  assert.equal(value('-2^2'), '-4');
  assert.equal(value('(-2)^2'), '4');
  assert.equal(value('2^-1^2'), '0.5');
  assert.equal(value('2 * -3'), '-6');
  assert.equal(value('3 - - 2'), '5');
  assert.equal(value('+4 - +1'), '3');
  assert.equal(value(' \t1\n+\t2 '), '3');
});

test('exact fractions and decimals', () => {
  assert.deepEqual(evaluate('1/3 + 1/6'), { fraction: '1/2', decimal: '0.5', exact: true });
  assert.deepEqual(evaluate('2/3'), { fraction: '2/3', decimal: '0.66666666666666666667…', exact: false });
  assert.deepEqual(evaluate('-1/3'), { fraction: '-1/3', decimal: '-0.33333333333333333333…', exact: false });
  assert.equal(evaluate('6/-4').fraction, '-3/2');
  assert.equal(value('100/3'), '33.333333333333333333…');
  assert.equal(value('10^25/3'), '3.3333333333333333333e+24…');
  assert.equal(value('2/3 * 10^-30'), '6.6666666666666666667e-31…');
  assert.equal(value('1/8'), '0.125');
  assert.equal(value('0.1 * 3'), '0.3');
  assert.equal(value('1 - 0.9'), '0.1');
  assert.equal(value('0 - 0'), '0');
  assert.equal(value('1/3 * 3'), '1');
  assert.equal(value('(-8)^-3'), '-0.001953125');
  assert.equal(value('0^0'), '1');
  assert.equal(value('-7 % 3'), '-1');
  assert.equal(value('abs(-5/2)'), '2.5');
  assert.equal(value('sqrt(9/4) + sqrt(0)'), '1.5');
  assert.equal(value('sqrt(2^200)'), (2n ** 100n).toString());
});

test('big numbers stay exact', () => {
  assert.equal(value('2^64 - 1'), '18446744073709551615');
  assert.equal(value('(2^100 + 1) - 2^100'), '1');
  assert.equal(value('10^10000').length, 10001);
  assert.equal(value('2^-10').length, '0.0009765625'.length);
  assert.equal(evaluate('(3^500 + 1) / (3^500 + 1)').fraction, '1');
  assert.equal(evaluate('(6^120 - 1) / (6^80 - 1)').fraction.includes('/'), true);
});

test('size limits', () => {
  rejects('2^10001', /Exponent magnitude exceeds 10000/, 2);
  rejects('2^-10001', /Exponent magnitude exceeds 10000/);
  rejects('(10^10000)^10', /exceeds 100000 digits/);
  rejects('2^0.5', /Exponent must be an integer/, 2);
  rejects('1e99999', /Exponent in number is too large/, 1);
  rejects(`1+${'1'.repeat(1000)}`, /longer than 1000 characters/);
  assert.equal(value(`${'('.repeat(100)}1${')'.repeat(100)}`), '1');
  rejects(`${'('.repeat(101)}1${')'.repeat(101)}`, /nested deeper than 100 levels/, 101);
  rejects(`${'-'.repeat(101)}1`, /nested deeper than 100 levels/);
});

test('arithmetic errors', () => {
  rejects('1/0', /Division by zero/, 2);
  rejects('1/(2-2)', /Division by zero/, 2);
  rejects('0^-1', /Division by zero/, 2);
  rejects('5 % 0', /Division by zero \(modulo\)/, 3);
  rejects('1.5 % 1', /% is only defined for integers/);
  rejects('sqrt(2)', /sqrt is only exact for perfect squares/, 1);
  rejects('sqrt(-4)', /sqrt of a negative number/);
});

test('syntax errors name the position', () => {
  rejects('', /Empty expression/, 1);
  rejects('   ', /Empty expression/, 1);
  rejects('1 + $', /Unexpected character "\$"/, 5);
  rejects('2 & 3', /Unexpected character "&"/, 3);
  rejects('(1 + 2', /Unbalanced parentheses/, 1);
  rejects('((1)', /Unbalanced parentheses/, 1);
  rejects('1 + 2)', /Unbalanced parentheses/, 6);
  rejects(')', /Unbalanced parentheses/, 1);
  rejects('()', /Expected a number but found "\)"/, 2);
  rejects('1 +', /Expected a number but found end of input/, 4);
  rejects('* 2', /Expected a number/, 1);
  rejects('2 3', /Unexpected number/, 3);
  rejects('2(3)', /Unexpected "\("/, 2);
  rejects('1.2.3', /Unexpected number/, 4);
  rejects('abs 3', /Expected "\(" after abs/, 5);
  rejects('😀', /Unexpected character "😀"/, 1);
});

test('code is never executed: identifiers and property access are rejected', () => {
  rejects('process.exit(1)', /Unexpected character "\."|Unknown identifier/);
  rejects('process', /Unknown identifier "process"/, 1);
  rejects('constructor', /Unknown identifier "constructor"/, 1);
  rejects('__proto__(1)', /Unknown identifier "__proto__"/, 1);
  rejects('toString(1)', /Unknown identifier "toString"/, 1);
  rejects('hasOwnProperty(1)', /Unknown identifier/);
  rejects('1 + x', /Unknown identifier "x"/, 5);
  rejects('Math.PI', /Unexpected character "\."|Unknown identifier/);
  rejects('"1"+1', /Unexpected character/, 1);
  rejects('[1]', /Unexpected character "\["/, 1);
  rejects('1;2', /Unexpected character ";"/, 2);
  rejects('a=>1', /Unexpected character "="|Unknown identifier/);
});
