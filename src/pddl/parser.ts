/**
 * Chevrotain (embedded actions) parser from PDDL tokens straight to the AST of ast.ts.
 * Syntax only, plus the checks that need raw tokens (requirement keywords, typed-list shape,
 * duplicate sections); the semantic checks live in check.ts.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { chevrotain } from "./chevrotain.js";
import type {
  ActionDecl, Atom, DerivedDecl, Domain, Effect, Formula, FunctionDecl, FunctionTerm, InitElement, Loc,
  Metric, NumericExpr, PredicateDecl, Problem, Term, TypedName,
} from "./ast.js";
import { PddlError } from "./errors.js";
import * as T from "./lexer.js";

const { EmbeddedActionsParser, EOF } = chevrotain;

/** Requirement keywords accepted in `:requirements` (DESIGN.md §3 plus the other standard ones). */
export const KNOWN_REQUIREMENTS: ReadonlySet<string> = new Set([
  ":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
  ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
  ":conditional-effects", ":adl", ":action-costs", ":derived-predicates",
  // Standard PDDL 1.2-3.1 keywords: accepted as flags; unsupported constructs fail where used.
  ":fluents", ":numeric-fluents", ":object-fluents", ":durative-actions", ":duration-inequalities",
  ":continuous-effects", ":timed-initial-literals", ":preferences", ":constraints", ":domain-axioms",
  ":expression-evaluation", ":safety-constraints", ":open-world", ":true-negation", ":ucpop",
]);

/** Locations the AST has no field for (used by semantic checks for precise errors). */
export const problemDomainLoc = new WeakMap<Problem, Loc>();
/** Where the type of a typed name (or a type's parent list) was written. */
export const typeLocOf = new WeakMap<object, Loc>();

type TypeSpec = { types: string[]; loc: Loc };
type DomainSection =
  | { kind: "requirements"; reqs: string[]; loc: Loc }
  | { kind: "types"; list: TypedName[]; loc: Loc }
  | { kind: "constants"; list: TypedName[]; loc: Loc }
  | { kind: "predicates"; list: PredicateDecl[]; loc: Loc }
  | { kind: "functions"; list: FunctionDecl[]; loc: Loc }
  | { kind: "action"; action: ActionDecl; loc: Loc }
  | { kind: "derived"; derived: DerivedDecl; loc: Loc };
type ProblemSection =
  | { kind: "domain"; name: string; loc: Loc }
  | { kind: "requirements"; reqs: string[]; loc: Loc }
  | { kind: "objects"; list: TypedName[]; loc: Loc }
  | { kind: "init"; list: InitElement[]; loc: Loc }
  | { kind: "goal"; goal: Formula; loc: Loc }
  | { kind: "metric"; metric: Metric; loc: Loc };

const culprits = new Map<string, IToken>();

function describe(t: IToken): string {
  if (t.tokenType === EOF) return "end of file";
  return `'${t.image.toLowerCase()}'`;
}
function label(tt: TokenType): string {
  return tt.LABEL ?? tt.name;
}
function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}
const RULE_DESC: Record<string, string> = {
  domainFile: "domain definition", problemFile: "problem definition", domainSection: "domain section",
  problemSection: "problem section", gd: "condition", effect: "effect", atom: "atom", term: "term",
  typeSpec: "type", typedVarList: "variable list", typedNameList: "name list", functionList: "function list",
  fhead: "function term", fexp: "numeric expression", initElement: "init element", actionBody: "action",
  atomSkeleton: "predicate declaration", requirementList: "requirements",
};

/** Messages name the offending token and what was expected. */
const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, ruleName }) {
    return `expected ${label(expected)} in ${RULE_DESC[ruleName] ?? ruleName} but found ${describe(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant, ruleName }) {
    return `unexpected ${describe(firstRedundant)} after the end of the ${RULE_DESC[ruleName] ?? ruleName}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, ruleName }) {
    return altMessage(expectedPathsPerAlt.flat(), actual, ruleName);
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, ruleName }) {
    return altMessage(expectedIterationPaths, actual, ruleName);
  },
};

/** The first lookahead token no path accepts is the culprit; list what paths expected there. */
function altMessage(paths: TokenType[][], actual: IToken[], ruleName: string): string {
  let depth = 0;
  for (const p of paths) {
    let k = 0;
    while (k < p.length && k < actual.length && matches(actual[k]!, p[k]!)) k++;
    depth = Math.max(depth, k);
  }
  depth = Math.min(depth, actual.length - 1);
  const culprit = actual[depth]!;
  const expected = uniq(
    paths.filter((p) => p.length > depth && p.slice(0, depth).every((tt, i) => matches(actual[i]!, tt))).map((p) => label(p[depth]!)),
  );
  const msg = `unexpected ${describe(culprit)} in ${RULE_DESC[ruleName] ?? ruleName}${expected.length > 0 ? `; expected ${expected.join(" or ")}` : ""}`;
  culprits.set(msg, culprit);
  return msg;
}
function matches(t: IToken, tt: TokenType): boolean {
  return t.tokenType === tt || (t.tokenType.CATEGORIES?.includes(tt) ?? false);
}

class PddlParser extends EmbeddedActionsParser {
  file = "<input>";

  constructor() {
    super(T.allTokens, { errorMessageProvider: messages, maxLookahead: 2 });
    this.performSelfAnalysis();
  }

  private loc(t: IToken): Loc {
    return { file: this.file, line: t.startLine ?? 1, column: t.startColumn ?? 1 };
  }
  private fail(msg: string, t: IToken): never {
    throw new PddlError(msg, this.loc(t));
  }

  // ---- shared pieces -------------------------------------------------------------------

  private term = this.RULE("term", (): Term => {
    const t = this.CONSUME(T.TermTok);
    return { kind: t.tokenType === T.Var ? "var" : "const", name: t.image.toLowerCase(), loc: this.loc(t) };
  });

  private typeSpec = this.RULE("typeSpec", (): TypeSpec => {
    return this.OR([
      { ALT: () => { const t = this.CONSUME(T.Name); return { types: [t.image.toLowerCase()], loc: this.loc(t) }; } },
      {
        ALT: () => {
          const lp = this.CONSUME(T.LParen);
          this.CONSUME(T.Either);
          const types: string[] = [];
          this.AT_LEAST_ONE(() => { types.push(this.CONSUME2(T.Name).image.toLowerCase()); });
          this.CONSUME(T.RParen);
          return { types, loc: this.loc(lp) };
        },
      },
    ]);
  });

  /** `?a ?b - t ?c` -> typed variables (untyped ones are `object`). */
  private typedVarList = this.RULE("typedVarList", (): TypedName[] => {
    const out: TypedName[] = [];
    // Groups `n1 n2 ... [- type]`; untyped names stay `object`.
    this.MANY(() => {
      const first = out.length;
      this.AT_LEAST_ONE(() => {
        const t = this.CONSUME(T.Var);
        out.push({ name: t.image.toLowerCase(), types: ["object"], loc: this.loc(t) });
      });
      this.OPTION(() => {
        this.CONSUME(T.Dash);
        const ts = this.SUBRULE(this.typeSpec);
        this.ACTION(() => {
          for (let i = first; i < out.length; i++) {
            out[i]!.types = ts.types.slice();
            typeLocOf.set(out[i]!, ts.loc);
          }
        });
      });
    });
    this.OPTION2(() => {
      const d = this.CONSUME2(T.Dash);
      this.ACTION(() => this.fail("misplaced '-': a typed list is '?a ?b - type'", d));
    });
    return out;
  });

  /** `a b - t c` -> typed names (untyped ones are `object`). */
  private typedNameList = this.RULE("typedNameList", (): TypedName[] => {
    const out: TypedName[] = [];
    // Groups `n1 n2 ... [- type]`; untyped names stay `object`.
    this.MANY(() => {
      const first = out.length;
      this.AT_LEAST_ONE(() => {
        const t = this.CONSUME(T.Name);
        out.push({ name: t.image.toLowerCase(), types: ["object"], loc: this.loc(t) });
      });
      this.OPTION(() => {
        this.CONSUME(T.Dash);
        const ts = this.SUBRULE(this.typeSpec);
        this.ACTION(() => {
          for (let i = first; i < out.length; i++) {
            out[i]!.types = ts.types.slice();
            typeLocOf.set(out[i]!, ts.loc);
          }
        });
      });
    });
    this.OPTION2(() => {
      const d = this.CONSUME2(T.Dash);
      this.ACTION(() => this.fail("misplaced '-': a typed list is 'a b - type'", d));
    });
    return out;
  });

  private atom = this.RULE("atom", (): Atom => {
    const lp = this.CONSUME(T.LParen);
    const p = this.CONSUME(T.Name);
    const args: Term[] = [];
    this.MANY(() => { args.push(this.SUBRULE(this.term)); });
    this.CONSUME(T.RParen);
    return { predicate: p.image.toLowerCase(), args, loc: this.loc(lp) };
  });

  private atomSkeleton = this.RULE("atomSkeleton", (): PredicateDecl => {
    const lp = this.CONSUME(T.LParen);
    const p = this.CONSUME(T.Name);
    const params = this.SUBRULE(this.typedVarList);
    this.CONSUME(T.RParen);
    const name = p.image.toLowerCase();
    return p.image !== name ? { name, params, loc: this.loc(lp), spelling: p.image } : { name, params, loc: this.loc(lp) };
  });

  private fhead = this.RULE("fhead", (): FunctionTerm => {
    return this.OR([
      {
        ALT: () => {
          const lp = this.CONSUME(T.LParen);
          const n = this.CONSUME(T.Name);
          const args: Term[] = [];
          this.MANY(() => { args.push(this.SUBRULE(this.term)); });
          this.CONSUME(T.RParen);
          return { name: n.image.toLowerCase(), args, loc: this.loc(lp) };
        },
      },
      { ALT: () => { const n = this.CONSUME2(T.Name); return { name: n.image.toLowerCase(), args: [], loc: this.loc(n) }; } },
    ]);
  });

  private fexp = this.RULE("fexp", (): NumericExpr => {
    return this.OR([
      { ALT: () => { const t = this.CONSUME(T.NumberTok); return { kind: "number" as const, value: Number(t.image), loc: this.loc(t) }; } },
      { ALT: () => { const fn = this.SUBRULE(this.fhead); return this.ACTION(() => ({ kind: "fn" as const, fn, loc: fn.loc })); } },
    ]);
  });

  // ---- formulas and effects --------------------------------------------------------------

  /** Goal description; `()` is the empty conjunction. */
  private gd = this.RULE("gd", (): Formula => {
    const lp = this.CONSUME(T.LParen);
    const loc = this.loc(lp);
    return this.OR<Formula>([
      { ALT: () => { this.CONSUME(T.RParen); return { kind: "and", args: [], loc }; } },
      {
        ALT: () => {
          this.CONSUME(T.And);
          const args: Formula[] = [];
          this.MANY(() => { args.push(this.SUBRULE(this.gd)); });
          this.CONSUME2(T.RParen);
          return { kind: "and", args, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Or);
          const args: Formula[] = [];
          this.MANY2(() => { args.push(this.SUBRULE2(this.gd)); });
          this.CONSUME3(T.RParen);
          return { kind: "or", args, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Not);
          const arg = this.SUBRULE3(this.gd);
          this.CONSUME4(T.RParen);
          return { kind: "not", arg, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Imply);
          const left = this.SUBRULE4(this.gd);
          const right = this.SUBRULE5(this.gd);
          this.CONSUME5(T.RParen);
          return { kind: "imply", left, right, loc };
        },
      },
      {
        ALT: () => {
          const q = this.OR2([{ ALT: () => this.CONSUME(T.Exists) }, { ALT: () => this.CONSUME(T.Forall) }]);
          this.CONSUME2(T.LParen);
          const params = this.SUBRULE(this.typedVarList);
          this.CONSUME6(T.RParen);
          const body = this.SUBRULE6(this.gd);
          this.CONSUME7(T.RParen);
          return this.ACTION(() => ({ kind: q.tokenType === T.Exists ? ("exists" as const) : ("forall" as const), params, body, loc }));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Equals);
          const left = this.SUBRULE(this.term);
          const right = this.SUBRULE2(this.term);
          this.CONSUME8(T.RParen);
          return { kind: "eq", left, right, loc };
        },
      },
      {
        ALT: () => {
          const p = this.CONSUME(T.Name);
          const args: Term[] = [];
          this.MANY3(() => { args.push(this.SUBRULE3(this.term)); });
          this.CONSUME9(T.RParen);
          return { kind: "atom", atom: { predicate: p.image.toLowerCase(), args, loc }, loc };
        },
      },
    ]);
  });

  /** Effect; `()` is the empty conjunction. */
  private effect = this.RULE("effect", (): Effect => {
    const lp = this.CONSUME(T.LParen);
    const loc = this.loc(lp);
    return this.OR<Effect>([
      { ALT: () => { this.CONSUME(T.RParen); return { kind: "and", args: [], loc }; } },
      {
        ALT: () => {
          this.CONSUME(T.And);
          const args: Effect[] = [];
          this.MANY(() => { args.push(this.SUBRULE(this.effect)); });
          this.CONSUME2(T.RParen);
          return { kind: "and", args, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Forall);
          this.CONSUME2(T.LParen);
          const params = this.SUBRULE(this.typedVarList);
          this.CONSUME3(T.RParen);
          const body = this.SUBRULE2(this.effect);
          this.CONSUME4(T.RParen);
          return { kind: "forall", params, body, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.When);
          const cond = this.SUBRULE(this.gd);
          const body = this.SUBRULE3(this.effect);
          this.CONSUME5(T.RParen);
          return { kind: "when", cond, body, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Not);
          const atom = this.SUBRULE(this.atom);
          this.CONSUME6(T.RParen);
          return { kind: "del", atom, loc };
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Increase);
          const fn = this.SUBRULE(this.fhead);
          const value = this.SUBRULE(this.fexp);
          this.CONSUME7(T.RParen);
          return { kind: "increase", fn, value, loc };
        },
      },
      {
        ALT: () => {
          const p = this.CONSUME(T.Name);
          const args: Term[] = [];
          this.MANY2(() => { args.push(this.SUBRULE(this.term)); });
          this.CONSUME8(T.RParen);
          return { kind: "add", atom: { predicate: p.image.toLowerCase(), args, loc }, loc };
        },
      },
    ]);
  });

  // ---- domain ----------------------------------------------------------------------------

  private requirementList = this.RULE("requirementList", (): string[] => {
    const reqs: string[] = [];
    this.MANY(() => {
      const t = this.CONSUME(T.ColonKw);
      this.ACTION(() => {
        const r = t.image.toLowerCase();
        if (!KNOWN_REQUIREMENTS.has(r)) this.fail(`unknown requirement '${r}'`, t);
        reqs.push(r);
      });
    });
    return reqs;
  });

  private functionList = this.RULE("functionList", (): FunctionDecl[] => {
    const out: FunctionDecl[] = [];
    let pending = 0;
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            const sk = this.SUBRULE(this.atomSkeleton);
            this.ACTION(() => { out.push({ name: sk.name, params: sk.params, type: null, loc: sk.loc }); pending++; });
          },
        },
        {
          ALT: () => {
            const d = this.CONSUME(T.Dash);
            const ts = this.SUBRULE(this.typeSpec);
            this.ACTION(() => {
              if (pending === 0) this.fail("'-' must follow at least one function", d);
              if (ts.types.length !== 1) throw new PddlError("a function type must be a single type", ts.loc);
              for (let i = out.length - pending; i < out.length; i++) out[i]!.type = ts.types[0]!;
              pending = 0;
            });
          },
        },
      ]);
    });
    return out;
  });

  private actionBody = this.RULE("actionBody", (nameTok: IToken): ActionDecl => {
    const act: ActionDecl = { name: "", params: [], precondition: null, effect: null, loc: { file: "", line: 0, column: 0 } };
    const seen = new Set<string>();
    const once = (t: IToken): void => {
      const k = t.image.toLowerCase();
      if (seen.has(k)) this.fail(`duplicate '${k}' in action '${act.name}'`, t);
      seen.add(k);
    };
    this.ACTION(() => {
      act.name = nameTok.image.toLowerCase();
      if (nameTok.image !== act.name) act.spelling = nameTok.image;
    });
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            const k = this.CONSUME(T.KwParameters);
            this.CONSUME(T.LParen);
            const params = this.SUBRULE(this.typedVarList);
            this.CONSUME(T.RParen);
            this.ACTION(() => { once(k); act.params = params; });
          },
        },
        {
          ALT: () => {
            const k = this.CONSUME(T.KwPrecondition);
            const pre = this.SUBRULE(this.gd);
            this.ACTION(() => { once(k); act.precondition = pre; });
          },
        },
        {
          ALT: () => {
            const k = this.CONSUME(T.KwEffect);
            const eff = this.SUBRULE(this.effect);
            this.ACTION(() => { once(k); act.effect = eff; });
          },
        },
      ]);
    });
    return act;
  });

  private domainSection = this.RULE("domainSection", (): DomainSection => {
    const lp = this.CONSUME(T.LParen);
    const loc = this.loc(lp);
    const s = this.OR<DomainSection>([
      { ALT: () => { this.CONSUME(T.KwRequirements); const reqs = this.SUBRULE(this.requirementList); return { kind: "requirements", reqs, loc }; } },
      { ALT: () => { this.CONSUME(T.KwTypes); const list = this.SUBRULE(this.typedNameList); return { kind: "types", list, loc }; } },
      { ALT: () => { this.CONSUME(T.KwConstants); const list = this.SUBRULE2(this.typedNameList); return { kind: "constants", list, loc }; } },
      {
        ALT: () => {
          this.CONSUME(T.KwPredicates);
          const list: PredicateDecl[] = [];
          this.MANY(() => { list.push(this.SUBRULE(this.atomSkeleton)); });
          return { kind: "predicates", list, loc };
        },
      },
      { ALT: () => { this.CONSUME(T.KwFunctions); const list = this.SUBRULE(this.functionList); return { kind: "functions", list, loc }; } },
      {
        ALT: () => {
          this.CONSUME(T.KwAction);
          const n = this.CONSUME(T.Name);
          const action = this.SUBRULE(this.actionBody, { ARGS: [n] });
          return this.ACTION(() => ({ kind: "action" as const, action: { ...action, loc }, loc }));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.KwDerived);
          const sk = this.SUBRULE2(this.atomSkeleton);
          const body = this.SUBRULE(this.gd);
          return this.ACTION(() => ({ kind: "derived" as const, derived: { predicate: sk.name, params: sk.params, body, loc }, loc }));
        },
      },
    ]);
    this.CONSUME(T.RParen);
    return s;
  });

  domainFile = this.RULE("domainFile", (): Domain => {
    const lp = this.CONSUME(T.LParen);
    this.CONSUME(T.Define);
    this.CONSUME2(T.LParen);
    this.CONSUME(T.DomainW);
    const n = this.CONSUME(T.Name);
    this.CONSUME(T.RParen);
    const d: Domain = {
      name: "", file: "", requirements: [], types: [], constants: [], predicates: [], functions: [],
      actions: [], derived: [], loc: { file: "", line: 0, column: 0 },
    };
    this.ACTION(() => { d.name = n.image.toLowerCase(); d.file = this.file; d.loc = this.loc(lp); });
    const seen = new Set<string>();
    this.MANY(() => {
      const s = this.SUBRULE(this.domainSection);
      this.ACTION(() => {
        if (s.kind !== "action" && s.kind !== "derived") {
          if (seen.has(s.kind)) throw new PddlError(`duplicate ':${s.kind}' section`, s.loc);
          seen.add(s.kind);
        }
        switch (s.kind) {
          case "requirements": d.requirements = s.reqs; break;
          case "types":
            d.types = s.list.filter((t) => t.name !== "object").map((t) => {
              const decl = { name: t.name, parents: t.types, loc: t.loc };
              const tl = typeLocOf.get(t);
              if (tl) typeLocOf.set(decl, tl);
              return decl;
            });
            break;
          case "constants": d.constants = s.list; break;
          case "predicates": d.predicates = s.list; break;
          case "functions": d.functions = s.list; break;
          case "action": d.actions.push(s.action); break;
          case "derived": d.derived.push(s.derived); break;
        }
      });
    });
    this.CONSUME3(T.RParen);
    return d;
  });

  // ---- problem ---------------------------------------------------------------------------

  private initElement = this.RULE("initElement", (): InitElement => {
    const lp = this.CONSUME(T.LParen);
    const loc = this.loc(lp);
    return this.OR<InitElement>([
      {
        ALT: () => {
          this.CONSUME(T.Equals);
          const fn = this.SUBRULE(this.fhead);
          const v = this.CONSUME(T.NumberTok);
          this.CONSUME(T.RParen);
          return { kind: "fn-eq", fn, value: Number(v.image), loc };
        },
      },
      {
        ALT: () => {
          const p = this.CONSUME(T.Name);
          const args: Term[] = [];
          this.MANY(() => { args.push(this.SUBRULE(this.term)); });
          this.CONSUME2(T.RParen);
          return { kind: "atom", atom: { predicate: p.image.toLowerCase(), args, loc }, loc };
        },
      },
    ]);
  });

  private problemSection = this.RULE("problemSection", (): ProblemSection => {
    const lp = this.CONSUME(T.LParen);
    const loc = this.loc(lp);
    const s = this.OR<ProblemSection>([
      { ALT: () => { this.CONSUME(T.KwDomain); const n = this.CONSUME(T.Name); return { kind: "domain", name: n.image.toLowerCase(), loc: this.loc(n) }; } },
      { ALT: () => { this.CONSUME(T.KwRequirements); const reqs = this.SUBRULE(this.requirementList); return { kind: "requirements", reqs, loc }; } },
      { ALT: () => { this.CONSUME(T.KwObjects); const list = this.SUBRULE(this.typedNameList); return { kind: "objects", list, loc }; } },
      {
        ALT: () => {
          this.CONSUME(T.KwInit);
          const list: InitElement[] = [];
          this.MANY(() => { list.push(this.SUBRULE(this.initElement)); });
          return { kind: "init", list, loc };
        },
      },
      { ALT: () => { this.CONSUME(T.KwGoal); const goal = this.SUBRULE(this.gd); return { kind: "goal", goal, loc }; } },
      {
        ALT: () => {
          this.CONSUME(T.KwMetric);
          const dir = this.CONSUME2(T.Name);
          const fn = this.SUBRULE(this.fhead);
          return this.ACTION(() => {
            const d = dir.image.toLowerCase();
            if (d !== "minimize" && d !== "maximize") this.fail(`expected 'minimize' or 'maximize' but found '${d}'`, dir);
            return { kind: "metric" as const, metric: { direction: d as "minimize" | "maximize", fn, loc }, loc };
          });
        },
      },
    ]);
    this.CONSUME(T.RParen);
    return s;
  });

  problemFile = this.RULE("problemFile", (): Problem => {
    const lp = this.CONSUME(T.LParen);
    this.CONSUME(T.Define);
    this.CONSUME2(T.LParen);
    this.CONSUME(T.ProblemW);
    const n = this.CONSUME(T.Name);
    this.CONSUME(T.RParen);
    const p: Problem = {
      name: "", file: "", domainName: "", requirements: [], objects: [], init: [],
      goal: { kind: "and", args: [], loc: { file: "", line: 0, column: 0 } }, metric: null,
      loc: { file: "", line: 0, column: 0 },
    };
    const seen = new Set<string>();
    this.ACTION(() => { p.name = n.image.toLowerCase(); p.file = this.file; p.loc = this.loc(lp); });
    this.MANY(() => {
      const s = this.SUBRULE(this.problemSection);
      this.ACTION(() => {
        if (seen.has(s.kind)) throw new PddlError(`duplicate ':${s.kind}' section`, s.loc);
        seen.add(s.kind);
        switch (s.kind) {
          case "domain": p.domainName = s.name; problemDomainLoc.set(p, s.loc); break;
          case "requirements": p.requirements = s.reqs; break;
          case "objects": p.objects = s.list; break;
          case "init": p.init = s.list; break;
          case "goal": p.goal = s.goal; break;
          case "metric": p.metric = s.metric; break;
        }
      });
    });
    const rp = this.CONSUME3(T.RParen);
    this.ACTION(() => {
      if (!seen.has("domain")) this.fail(`problem '${p.name}' has no (:domain ...) section`, rp);
      if (!seen.has("goal")) this.fail(`problem '${p.name}' has no (:goal ...) section`, rp);
    });
    return p;
  });
}

let instance: PddlParser | null = null;
function parser(): PddlParser {
  return (instance ??= new PddlParser());
}

function run<R>(text: string, file: string, entry: (p: PddlParser) => R): R {
  const tokens = T.tokenize(text, file);
  T.checkParens(tokens, file);
  const p = parser();
  p.file = file;
  p.input = tokens;
  culprits.clear();
  const result = entry(p);
  if (p.errors.length > 0) {
    const e = p.errors[0]!;
    let tok = culprits.get(e.message) ?? e.token;
    if (tok.tokenType === EOF || !Number.isFinite(tok.startLine)) {
      // Position just past the last token (or 1:1 for an empty file).
      const last = tokens[tokens.length - 1];
      tok = last ?? tok;
      const loc: Loc = last
        ? { file, line: last.startLine ?? 1, column: (last.startColumn ?? 0) + last.image.length }
        : { file, line: 1, column: 1 };
      throw new PddlError(e.message, loc);
    }
    throw new PddlError(e.message, { file, line: tok.startLine ?? 1, column: tok.startColumn ?? 1 });
  }
  return result;
}

/** Syntax-only parse of a domain file (no semantic checks). */
export function parseDomainSyntax(text: string, file: string): Domain {
  return run(text, file, (p) => p.domainFile());
}

/** Syntax-only parse of a problem file (no semantic checks). */
export function parseProblemSyntax(text: string, file: string): Problem {
  return run(text, file, (p) => p.problemFile());
}
