/**
 * A small arithmetic evaluator for the Calculator tool: a recursive-descent parser over numbers,
 * + - * / % ^ (right-associative power), parentheses, unary minus/plus, the constants pi and e and a
 * few functions. No eval, no Function, no property access: a name is either in FUNCTIONS/CONSTANTS
 * or refused. (No expression library is installed: mathjs and expr-eval are not dependencies.)
 * Input length and nesting depth are capped so a hostile expression costs little.
 *
 * Grammar:
 *   expr    := term (("+" | "-") term)*
 *   term    := unary (("*" | "/" | "%") unary)*
 *   unary   := ("-" | "+") unary | power
 *   power   := primary ("^" unary)?
 *   primary := number | name | name "(" expr ("," expr)* ")" | "(" expr ")"
 */

export const MAX_EXPRESSION_LENGTH = 500;
export const MAX_NESTING_DEPTH = 40;

/** A bad expression, worded for the agent that wrote it. */
export class ExpressionError extends Error {
  override name = "ExpressionError";
}

type Fn = { arity: [number, number]; apply: (args: number[]) => number };

const fixed = (n: number, apply: (args: number[]) => number): Fn => ({ arity: [n, n], apply });
const variadic = (apply: (args: number[]) => number): Fn => ({ arity: [1, 100], apply });

const FUNCTION_TABLE: Record<string, Fn> = {
  sqrt: fixed(1, ([x]) => Math.sqrt(x)),
  cbrt: fixed(1, ([x]) => Math.cbrt(x)),
  abs: fixed(1, ([x]) => Math.abs(x)),
  round: { arity: [1, 2], apply: ([x, digits = 0]) => roundTo(x, digits) },
  floor: fixed(1, ([x]) => Math.floor(x)),
  ceil: fixed(1, ([x]) => Math.ceil(x)),
  trunc: fixed(1, ([x]) => Math.trunc(x)),
  min: variadic((xs) => Math.min(...xs)),
  max: variadic((xs) => Math.max(...xs)),
  pow: fixed(2, ([x, y]) => x ** y),
  exp: fixed(1, ([x]) => Math.exp(x)),
  ln: fixed(1, ([x]) => Math.log(x)),
  log: { arity: [1, 2], apply: ([x, base]) => (base === undefined ? Math.log10(x) : Math.log(x) / Math.log(base)) },
  log10: fixed(1, ([x]) => Math.log10(x)),
  log2: fixed(1, ([x]) => Math.log2(x)),
  sin: fixed(1, ([x]) => Math.sin(x)),
  cos: fixed(1, ([x]) => Math.cos(x)),
  tan: fixed(1, ([x]) => Math.tan(x)),
};

// Maps, not object lookups: "constructor" or "__proto__" must be unknown names, not prototype members.
const FUNCTIONS = new Map(Object.entries(FUNCTION_TABLE));
const CONSTANTS = new Map(Object.entries({ pi: Math.PI, e: Math.E }));
const FUNCTION_NAMES = [...FUNCTIONS.keys()].join(", ");

function roundTo(x: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15)
    throw new ExpressionError("round(x, digits): digits must be a whole number from 0 to 15.");
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

type Token =
  | { kind: "number"; value: number; at: number }
  | { kind: "name"; value: string; at: number }
  | { kind: "op"; value: string; at: number };

const OPERATORS = new Set(["+", "-", "*", "/", "%", "^", "(", ")", ","]);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ kind: "number", value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (name) {
      tokens.push({ kind: "name", value: name[0].toLowerCase(), at: i });
      i += name[0].length;
      continue;
    }
    if (c === "*" && text[i + 1] === "*") {
      tokens.push({ kind: "op", value: "^", at: i });
      i += 2;
      continue;
    }
    const op = c === "×" ? "*" : c === "÷" ? "/" : c;
    if (!OPERATORS.has(op)) throw new ExpressionError(`Unexpected character "${c}" at position ${i + 1}.`);
    tokens.push({ kind: "op", value: op, at: i });
    i++;
  }
  return tokens;
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new ExpressionError("The expression is empty.");
    const value = this.expr();
    const rest = this.tokens[this.pos];
    if (rest) throw new ExpressionError(`Unexpected "${rest.value}" at position ${rest.at + 1}.`);
    return value;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isOp(value: string): boolean {
    const t = this.peek();
    return t?.kind === "op" && t.value === value;
  }

  private expect(value: string, context: string): void {
    if (!this.isOp(value)) {
      const t = this.peek();
      throw new ExpressionError(
        t ? `Expected "${value}" ${context} at position ${t.at + 1}.` : `Expected "${value}" ${context}.`,
      );
    }
    this.pos++;
  }

  /** Guards recursion: every nested parenthesis, function call, unary sign or power goes one deeper. */
  private nested<R>(f: () => R): R {
    if (++this.depth > MAX_NESTING_DEPTH)
      throw new ExpressionError(`The expression is nested too deeply (more than ${MAX_NESTING_DEPTH} levels).`);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private expr(): number {
    let value = this.term();
    while (this.isOp("+") || this.isOp("-")) {
      const op = this.tokens[this.pos++].value;
      const right = this.term();
      value = op === "+" ? value + right : value - right;
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    while (this.isOp("*") || this.isOp("/") || this.isOp("%")) {
      const op = this.tokens[this.pos++].value;
      const right = this.unary();
      if ((op === "/" || op === "%") && right === 0) throw new ExpressionError("Division by zero.");
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    if (this.isOp("-") || this.isOp("+")) {
      const negative = this.tokens[this.pos++].value === "-";
      return this.nested(() => {
        const value = this.unary();
        return negative ? -value : value;
      });
    }
    return this.power();
  }

  private power(): number {
    const base = this.primary();
    if (!this.isOp("^")) return base;
    this.pos++;
    // Right-associative, and binds tighter than a unary minus on its left: -2^2 = -4, 2^-1 = 0.5.
    return this.nested(() => base ** this.unary());
  }

  private primary(): number {
    const t = this.peek();
    if (!t) throw new ExpressionError("The expression ends too early: a number or ( is missing.");
    if (t.kind === "number") {
      this.pos++;
      return t.value;
    }
    if (t.kind === "name") {
      this.pos++;
      if (this.isOp("(")) return this.call(t);
      const constant = CONSTANTS.get(t.value);
      if (constant === undefined)
        throw new ExpressionError(
          `Unknown name "${t.value}". Use numbers, + - * / % ^, parentheses, pi, e and the functions ${FUNCTION_NAMES}.`,
        );
      return constant;
    }
    if (t.value === "(") {
      this.pos++;
      return this.nested(() => {
        const value = this.expr();
        this.expect(")", "to close the parenthesis");
        return value;
      });
    }
    throw new ExpressionError(`Unexpected "${t.value}" at position ${t.at + 1}.`);
  }

  private call(name: Token): number {
    const fn = FUNCTIONS.get(name.value as string);
    if (!fn) throw new ExpressionError(`Unknown function "${name.value}". Available: ${FUNCTION_NAMES}.`);
    this.pos++; // (
    return this.nested(() => {
      const args: number[] = [];
      if (!this.isOp(")")) {
        args.push(this.expr());
        while (this.isOp(",")) {
          this.pos++;
          args.push(this.expr());
        }
      }
      this.expect(")", `to close ${name.value}(`);
      const [least, most] = fn.arity;
      if (args.length < least || args.length > most) {
        const wanted = least === most ? `${least}` : most >= 100 ? `at least ${least}` : `${least} or ${most}`;
        throw new ExpressionError(`${name.value}() takes ${wanted} argument(s), got ${args.length}.`);
      }
      return fn.apply(args);
    });
  }
}

/** Evaluates an arithmetic expression; throws an ExpressionError (readable by an agent) on bad input. */
export function evaluateExpression(text: string): number {
  if (text.length > MAX_EXPRESSION_LENGTH)
    throw new ExpressionError(
      `The expression is too long (${text.length} characters; at most ${MAX_EXPRESSION_LENGTH}).`,
    );
  const value = new Parser(tokenize(text)).parse();
  if (Number.isNaN(value))
    throw new ExpressionError("The result is not a number (e.g. the square root of a negative).");
  if (!Number.isFinite(value)) throw new ExpressionError("The result is too large (infinite).");
  return value;
}

/** A result as text: up to 12 significant digits, so 0.1 + 0.2 reads 0.3. */
export function formatResult(value: number): string {
  if (Object.is(value, -0)) return "0";
  return String(Number(value.toPrecision(12)));
}
