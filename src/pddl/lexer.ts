/**
 * Chevrotain lexer for PDDL. Patterns are case-insensitive; the parser lower-cases images.
 */
import type { IToken, TokenType } from "chevrotain";
import { chevrotain } from "./chevrotain.js";
import { PddlError } from "./errors.js";

const { createToken, Lexer } = chevrotain;

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n\f\v]+/, group: Lexer.SKIPPED });
export const Comment = createToken({ name: "Comment", pattern: /;[^\n]*/, group: Lexer.SKIPPED });
export const LParen = createToken({ name: "LParen", pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: "RParen", pattern: /\)/, label: "')'" });
/** Category of Var and Name: a term (lets the parser consume one token instead of an OR). */
export const TermTok = createToken({ name: "Term", pattern: Lexer.NA, label: "a variable or a name" });
export const Var = createToken({ name: "Var", pattern: /\?[a-z_][a-z0-9_-]*/i, label: "a variable", categories: [TermTok] });
export const NumberTok = createToken({ name: "Number", pattern: /-?\d+(?:\.\d+)?/, label: "a number" });
export const Dash = createToken({ name: "Dash", pattern: /-/, label: "'-'" });
export const Equals = createToken({ name: "Equals", pattern: /=/, label: "'='" });
export const Name = createToken({ name: "Name", pattern: /[a-z_][a-z0-9_-]*/i, label: "a name", categories: [TermTok] });
/** Any `:keyword` that is not a section keyword (requirement flags, unknown sections). */
export const ColonKw = createToken({ name: "ColonKw", pattern: /:[a-z][a-z0-9_-]*/i, label: "a :keyword" });

function word(w: string): TokenType {
  return createToken({ name: w[0]!.toUpperCase() + w.slice(1), pattern: new RegExp(w, "i"), longer_alt: Name, label: `'${w}'` });
}
function section(w: string): TokenType {
  const n = w.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
  return createToken({ name: "Kw" + n, pattern: new RegExp(":" + w, "i"), longer_alt: ColonKw, label: `':${w}'` });
}

export const Define = word("define");
export const DomainW = word("domain");
export const ProblemW = word("problem");
export const And = word("and");
export const Or = word("or");
export const Not = word("not");
export const Imply = word("imply");
export const Exists = word("exists");
export const Forall = word("forall");
export const When = word("when");
export const Increase = word("increase");
export const Either = word("either");

export const KwRequirements = section("requirements");
export const KwTypes = section("types");
export const KwConstants = section("constants");
export const KwPredicates = section("predicates");
export const KwFunctions = section("functions");
export const KwAction = section("action");
export const KwDerived = section("derived");
export const KwParameters = section("parameters");
export const KwPrecondition = section("precondition");
export const KwEffect = section("effect");
export const KwDomain = section("domain");
export const KwObjects = section("objects");
export const KwInit = section("init");
export const KwGoal = section("goal");
export const KwMetric = section("metric");

const words = [Define, DomainW, ProblemW, And, Or, Not, Imply, Exists, Forall, When, Increase, Either];
const sections = [
  KwRequirements, KwTypes, KwConstants, KwPredicates, KwFunctions, KwAction, KwDerived, KwParameters,
  KwPrecondition, KwEffect, KwDomain, KwObjects, KwInit, KwGoal, KwMetric,
];

/** All token types, in lexing priority order. */
export const allTokens: TokenType[] = [
  WhiteSpace, Comment, LParen, RParen, Var, NumberTok, Dash, Equals,
  ...sections, ColonKw, ...words, Name, TermTok,
];

const lexer = new Lexer(allTokens, { positionTracking: "onlyStart", ensureOptimizations: true });

/** Tokenize PDDL text; an unknown character is a PddlError at its position. */
export function tokenize(text: string, file: string): IToken[] {
  const res = lexer.tokenize(text);
  if (res.errors.length > 0) {
    const e = res.errors[0]!;
    const ch = text.substr(e.offset, Math.max(1, Math.min(e.length, 20)));
    throw new PddlError(`unexpected character '${ch[0] === undefined ? "" : printable(ch[0])}'`, {
      file,
      line: e.line ?? 1,
      column: e.column ?? 1,
    });
  }
  return res.tokens;
}

function printable(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 32 || code === 127 || (code >= 0xd800 && code <= 0xdfff)) return `\\u${code.toString(16).padStart(4, "0")}`;
  return c;
}

/**
 * Check parenthesis balance before parsing, so that an unclosed `(` is reported at its own
 * position (not at end of file) and a stray `)` at its position.
 */
/** Deepest parenthesis nesting accepted. */
export const MAX_DEPTH = 500;

export function checkParens(tokens: IToken[], file: string): void {
  const stack: number[] = [];
  // Indentation heuristic for the unclosed paren: a line-leading `(` whose contents were
  // indented deeper is "probably unclosed" if a later line starts at its column or left of it
  // while it is still open; a `(` inside a line (`:precondition (and ...`) is if a later line
  // starts at or left of where its own line starts.
  const indented = new Uint8Array(tokens.length);
  const lineIndent = new Int32Array(tokens.length);
  let suspect = -1;
  let prevLine = 0;
  let indent = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const leading = t.startLine !== prevLine;
    prevLine = t.startLine ?? 0; // non-skipped tokens never span lines
    if (leading) indent = t.startColumn ?? 0;
    if (leading && t.tokenType !== RParen && suspect < 0) {
      const col = t.startColumn ?? 0;
      for (let k = stack.length - 1; k >= 0; k--) {
        const o = stack[k]!;
        const ot = tokens[o]!;
        if (o > 0 && ot.startLine === tokens[o - 1]!.startLine) {
          // not line-leading
          if (col <= lineIndent[o]!) {
            suspect = o;
            break;
          }
          continue;
        }
        if (col > (ot.startColumn ?? 0)) indented[o] = 1;
        else if (indented[o] === 1) {
          suspect = o;
          break;
        }
      }
    }
    lineIndent[i] = indent;
    if (t.tokenType === LParen) {
      stack.push(i);
      // Recursive descent on absurd nesting would overflow the JS stack (a RangeError, not a PddlError).
      if (stack.length > MAX_DEPTH) throw new PddlError(`parentheses nested deeper than ${MAX_DEPTH}`, locOf(t, file));
    }
    else if (t.tokenType === RParen) {
      if (stack.length === 0) throw new PddlError("unmatched ')' (no '(' to close)", locOf(t, file));
      stack.pop();
    }
  }
  if (stack.length > 0) {
    const open = suspect >= 0 ? tokens[suspect]! : tokens[stack[stack.length - 1]!]!;
    const next = tokens[(suspect >= 0 ? suspect : stack[stack.length - 1]!) + 1];
    const what = next !== undefined && next.tokenType !== LParen && next.tokenType !== RParen ? ` of '${next.image.toLowerCase()}'` : "";
    throw new PddlError(`unclosed '('${what}: missing ')'`, locOf(open, file));
  }
}

export function locOf(t: IToken, file: string): { file: string; line: number; column: number } {
  return { file, line: t.startLine ?? 1, column: t.startColumn ?? 1 };
}
