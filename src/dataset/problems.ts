import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseDomain, parseProblem, type Domain } from "../pddl/index.js";
import { UserError } from "../pddl/errors.js";
import { domainFileFor, isDomainFileName } from "../pddl/files.js";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir, generateProblems, getBuiltinDomain, regenerateProblem, type GeneratedProblem } from "../generators/index.js";
import { parseTemplatesText, readTemplatesFile } from "../nl/index.js";
import { hashString } from "../util/prng.js";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Split } from "./row.js";

/** A problem of a run, before labelling. */
export interface ProblemSource {
  domainName: string;
  domainFile: string;
  domainText: string;
  problemId: string;
  problemFile: string;
  /**
   * The problem's PDDL. Null in a run's plan: the thread that labels the problem reads its file
   * again, or makes a `--count` problem again from `generated` (`problemTextOf`, checked against
   * `problemSha256`), so that a run over tens of thousands of problems does not hold their texts
   * in memory.
   */
  problemText: string | null;
  /** sha256 (hex) of the text, where `problemText` is null. */
  problemSha256?: string;
  /** A problem made by `--count`: how to make its text again (`regenerateProblem`). */
  generated?: { seed: number; index: number; attempt: number };
  builtinTemplates: string | null;
  templatesFile: string | null;
  /** The templates file's text, read once when the run starts (edits during the run do not reach it). */
  templatesText?: string | null;
}

/** Where the problems of a run come from (see `generate --help`). */
export interface ProblemSelection {
  /** Built-in domain names, or ["all"]. */
  domains?: string[];
  /** One domain file for every problem of `problems`. */
  domainFile?: string;
  /**
   * A folder of .pddl problems or a glob such as `probs/p*.pddl`; with built-in domains, a
   * folder holding one subfolder per domain (or the problems of the single domain). Without
   * `domainFile` or `domains`, each problem uses its own domain file found beside it
   * (`domain_<name>.pddl`, `<name>-domain.pddl`, `pNN-domain.pddl`, ... else `domain.pddl`;
   * see `domainFileFor`), so one run labels a whole IPC folder.
   */
  problems?: string;
  /**
   * A text file listing `DOMAIN PROBLEM` path pairs, one per line (paths relative to the list's
   * folder; `#` comments and blank lines ignored).
   */
  pairs?: string;
  /** nl.json templates for a user domain. */
  templatesFile?: string;
  /** Generic text for what the templates leave out (else an error, found before labelling). */
  genericFallback?: boolean;
  /** Make this many fresh problems per domain with the built-in generator instead of the default set. */
  count?: number;
  /** Sets for `count` already made (`pregenerateProblems`), by domain name; others are made here. */
  generated?: ReadonlyMap<string, readonly GeneratedProblem[]>;
  seed: number;
}

/** The sha256 of a problem text, as `problemSha256` holds it. */
function textSha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The PDDL of a problem: its text, or its file read again and checked against the digest taken
 * when the run was planned (a file edited mid-run would give rows that match neither version).
 */
export function problemTextOf(p: Pick<ProblemSource, "domainName" | "problemFile" | "problemText" | "problemSha256" | "generated">): string {
  if (p.problemText !== null) return p.problemText;
  if (p.generated !== undefined) {
    const g = p.generated;
    const text = regenerateProblem(p.domainName, g.seed, g.index, g.attempt);
    // a generator that drew differently the second time would be a bug, not bad input
    if (p.problemSha256 !== undefined && textSha256(text) !== p.problemSha256) throw new Error(`${p.problemFile}: made again, the text differs`);
    return text;
  }
  const text = readText(p.problemFile);
  if (p.problemSha256 !== undefined && textSha256(text) !== p.problemSha256) {
    throw new UserError(`${p.problemFile}: the file changed during the run (its rows would match neither version); run again`);
  }
  return text;
}

/**
 * The run's digest of its problems (`RunPlan.problemsSha256`: every `domain/id`, NUL and text,
 * joined by NUL, in run order), taken as `resolveProblems` makes each source, which then drops
 * the text of a problem read from a file or made by `--count` (keeping `problemSha256`):
 * `problemTextOf` reads or makes it again where it is labelled. Holding every text until the
 * plan was complete made the main thread's heap, and its later growth, scale with the run
 * (58,856 texts at 4x the paper's corpus: 43 MB live during planning, a 200 MB heap later).
 */
export class ProblemsDigest {
  private readonly hash = createHash("sha256");
  private count = 0;

  /** Hash `p` (in run order) and drop its text where it can be had again. */
  add(p: ProblemSource): void {
    if (this.count++ > 0) this.hash.update("\0");
    this.hash.update(`${p.domainName}/${p.problemId}\0`);
    const text = problemTextOf(p);
    this.hash.update(text);
    if (p.problemText === null || (p.problemFile.startsWith(GENERATED_PREFIX) && p.generated === undefined)) return;
    p.problemSha256 = textSha256(text);
    p.problemText = null;
  }

  /** The digest (hex); call once, after the last `add`. */
  hex(): string {
    return this.hash.digest("hex");
  }
}

/** `problemFile` of a problem made by `--count` (it has no file until its copy is written). */
const GENERATED_PREFIX = "generated:";

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new UserError(`${path}: cannot read file`);
  }
}

/**
 * A shell glob of one path segment as a RegExp: `*`, `?`, classes `[abc]`, `[a-z]`, `[!abc]`
 * (or `[^abc]`), and braces `{a,b}` as a shell expands them. A `[` without its `]` is literal,
 * as in a shell.
 */
export function globToRegExp(pattern: string): RegExp {
  let re = "";
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else if (ch === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) {
        re += "\\[";
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body[0] === "!" || body[0] === "^";
      if (negate) body = body.slice(1);
      re += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = end;
    } else if (ch === "{" && pattern.slice(i, pattern.indexOf("}", i)).includes(",")) {
      braces++;
      re += "(?:";
    } else if (ch === "," && braces > 0) re += "|";
    else if (ch === "}" && braces > 0) {
      braces--;
      re += ")";
    } else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const GLOB_CHARS = /[*?[{]/;

/** Problem files named by a folder or a glob (wildcards in the last path segment), sorted by name. */
export function listProblemFiles(spec: string): string[] {
  // An existing file or folder is taken as named, even with glob characters in its name.
  const isGlob = GLOB_CHARS.test(spec) && !existsSync(spec);
  let dir: string;
  let match: (name: string) => boolean;
  if (isGlob) {
    dir = dirname(spec);
    if (GLOB_CHARS.test(dir)) throw new UserError(`--problems ${spec}: wildcards are only supported in the file name`);
    const pattern = basename(spec);
    const re = globToRegExp(pattern);
    // as in a shell, a wildcard does not match a leading dot: hidden files only when the pattern says "."
    match = (n) => re.test(n) && (!n.startsWith(".") || pattern.startsWith("."));
  } else {
    if (!existsSync(spec)) throw new UserError(`--problems ${spec}: no such file or folder`);
    if (statSync(spec).isFile()) return [resolve(spec)];
    dir = spec;
    // In a folder, every .pddl except domain files and hidden files (editor backups) is a problem.
    match = (n) => n.toLowerCase().endsWith(".pddl") && !n.startsWith(".") && !isDomainFileName(n);
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`--problems ${spec}: no such folder ${dir}`);
  const files = readdirSync(dir)
    .filter(match)
    .sort()
    .map((n) => resolve(join(dir, n)))
    .filter((p) => statSync(p).isFile());
  if (files.length === 0) throw new UserError(`--problems ${spec}: no problem files found`);
  return files;
}

/** `DOMAIN PROBLEM` pairs of a list file (see `ProblemSelection.pairs`), paths resolved. */
export function readPairsFile(file: string): Array<{ domain: string; problem: string }> {
  const base = dirname(resolve(file));
  const out: Array<{ domain: string; problem: string }> = [];
  readText(file)
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.replace(/#.*$/, "").trim();
      if (line === "") return;
      const parts = line.split(/\s+/);
      if (parts.length !== 2) throw new UserError(`${file}:${i + 1}: expected 'DOMAIN PROBLEM' (two paths), got '${line}'`);
      const [domain, problem] = parts.map((x) => resolve(base, x)) as [string, string];
      for (const p of [domain, problem]) {
        if (!existsSync(p) || !statSync(p).isFile()) throw new UserError(`${file}:${i + 1}: ${p}: no such file`);
      }
      out.push({ domain, problem });
    });
  if (out.length === 0) throw new UserError(`${file}: no pairs listed`);
  return out;
}

/**
 * Problem files up to this many characters are parsed before the run starts, so that bad PDDL
 * stops it before anything is written. Larger ones are parsed only by the worker that labels
 * them, under its memory limit (the parser needs some 70 bytes per character): bad PDDL there
 * still fails the run, which then removes what it wrote.
 */
export const UPFRONT_PARSE_MAX_CHARS = 2_000_000;

/**
 * Problem sources of user domains from (domain file, problem file) pairs: each distinct domain
 * file is read and parsed once (and the templates compiled against it); problem ids must be
 * unique per domain name.
 */
function userSources(pairs: Array<{ domain: string; problem: string }>, sel: ProblemSelection, visit: (p: ProblemSource) => void, digest?: ProblemsDigest): void {
  const domains = new Map<string, { domain: Domain; text: string }>();
  const seen = new Set<string>();
  const templatesFile = sel.templatesFile;
  const templatesText = templatesFile !== undefined ? readTemplatesFile(templatesFile) : null;
  for (const { domain: domainFile, problem: file } of pairs) {
    let d = domains.get(domainFile);
    if (!d) {
      const text = readText(domainFile);
      d = { domain: parseDomain(text, domainFile), text };
      domains.set(domainFile, d);
      if (templatesFile !== undefined) parseTemplatesText(templatesText!, templatesFile, d.domain, { genericFallback: sel.genericFallback ?? false });
    }
    // Parse now: a bad problem file stops the run before anything is written.
    const problemText = readText(file);
    if (problemText.length <= UPFRONT_PARSE_MAX_CHARS) parseProblem(problemText, file, d.domain);
    const problemId = basename(file).replace(/\.pddl$/i, "");
    const name = d.domain.name;
    if (seen.has(`${name}/${problemId}`)) throw new UserError(`${file}: duplicate problem id '${problemId}' in domain '${name}'`);
    seen.add(`${name}/${problemId}`);
    const source: ProblemSource = {
      domainName: name,
      domainFile,
      domainText: d.text,
      problemId,
      problemFile: file,
      problemText,
      builtinTemplates: null,
      templatesFile: templatesFile ?? null,
      templatesText,
    };
    digest?.add(source);
    visit(source);
  }
}

/** Problem sources of built-in domain `name` from the problem files of a folder or glob. */
function builtinFromFiles(name: string, domainFile: string, domainText: string, spec: string, visit: (p: ProblemSource) => void, digest?: ProblemsDigest): void {
  const seen = new Map<string, string>();
  for (const file of listProblemFiles(spec)) {
    // ids name rows and PDDL copies: p01.pddl and p01.PDDL would give both problems the same
    const problemId = basename(file).replace(/\.pddl$/i, "");
    const other = seen.get(problemId);
    if (other !== undefined) throw new UserError(`${file}: duplicate problem id '${problemId}' in domain '${name}' (also ${other})`);
    seen.set(problemId, file);
    const source: ProblemSource = {
      domainName: name,
      domainFile,
      domainText,
      problemId,
      problemFile: file,
      problemText: readText(file),
      builtinTemplates: name,
      templatesFile: null,
    };
    digest?.add(source);
    visit(source);
  }
}

/**
 * The problems of a run in their canonical order (domain order as given, then problem name).
 * With `digest`, each is added to it as it is made (so in that order) and keeps no text.
 */
export function resolveProblems(sel: ProblemSelection, digest?: ProblemsDigest): ProblemSource[] {
  const out: ProblemSource[] = [];
  forEachProblem(sel, (p) => out.push(p), digest);
  return out;
}

/**
 * `resolveProblems` one problem at a time, without an array of them all (a run's plan packs
 * them as they come: `JobList`).
 */
export function forEachProblem(sel: ProblemSelection, visit: (p: ProblemSource) => void, digest?: ProblemsDigest): void {
  const builtin = sel.domains !== undefined && sel.domains.length > 0;
  if (sel.pairs !== undefined) {
    if (builtin || sel.domainFile !== undefined || sel.problems !== undefined) {
      throw new UserError("give --pairs alone, without --domain, --domain-file or --problems");
    }
    return userSources(readPairsFile(sel.pairs), sel, visit, digest);
  }
  if (sel.domainFile !== undefined) {
    if (builtin) throw new UserError("give either --domain or --domain-file, not both");
    if (sel.problems === undefined) throw new UserError("--domain-file needs --problems DIR|GLOB");
    const domainFile = sel.domainFile;
    return userSources(listProblemFiles(sel.problems).map((problem) => ({ domain: domainFile, problem })), sel, visit, digest);
  }
  if (!builtin && sel.problems !== undefined) {
    // Each problem with the domain file beside it (per-problem files as in IPC trucks, airport).
    return userSources(
      listProblemFiles(sel.problems).map((problem) => {
        const domain = domainFileFor(dirname(problem), problem);
        if (domain === null) {
          throw new UserError(`${problem}: no domain file beside it (domain.pddl, or ${basename(problem).replace(/\.pddl$/i, "")}-domain.pddl and the like); give --domain-file`);
        }
        return { domain, problem };
      }),
      sel,
      visit,
      digest,
    );
  }
  const names = sel.domains ?? [];
  if (names.length === 0) {
    throw new UserError("give --domain NAME (a built-in domain; see `pddl2prm domains`), --domain-file FILE --problems DIR, --problems DIR (domain files beside the problems) or --pairs FILE");
  }
  const expanded = names.includes("all") ? BUILTIN_DOMAINS.map((d) => d.name) : names;
  const seenDomains = new Set<string>();
  for (const name of expanded) {
    if (seenDomains.has(name)) continue;
    seenDomains.add(name);
    getBuiltinDomain(name); // throws a UserError listing valid names
    const domainFile = builtinDomainFile(name);
    const domainText = readText(domainFile);
    if (sel.problems !== undefined) {
      // Built-in domain, your own problems: DIR/<domain>/ when it exists (multi-domain runs), else DIR.
      const sub = join(sel.problems, name);
      const spec = existsSync(sub) && statSync(sub).isDirectory() ? sub : sel.problems;
      if (spec === sel.problems && expanded.length > 1) {
        throw new UserError(`--problems ${sel.problems}: with several domains it must hold one folder per domain (missing ${sub})`);
      }
      builtinFromFiles(name, domainFile, domainText, spec, visit, digest);
    } else if (sel.count !== undefined) {
      const made = sel.generated?.get(name) ?? generateProblems(name, { count: sel.count, seed: sel.seed, planLengths: false });
      made.forEach((p, k) => {
        const source: ProblemSource = {
          domainName: name,
          domainFile,
          domainText,
          problemId: p.name,
          problemFile: `${GENERATED_PREFIX}${name}/${p.name}.pddl`,
          problemText: p.text,
          generated: { seed: sel.seed, index: k + 1, attempt: p.attempt },
          builtinTemplates: name,
          templatesFile: null,
        };
        digest?.add(source);
        visit(source);
      });
    } else {
      builtinFromFiles(name, domainFile, domainText, builtinProblemsDir(name), visit, digest);
    }
  }
}

/** The split of a problem: 85/5/10 by a hash of its id; the held-out domain goes to test. */
export function splitOf(domainName: string, problemId: string, holdoutDomain?: string): Split {
  if (holdoutDomain !== undefined && domainName === holdoutDomain) return "test";
  const h = hashString(`${domainName}/${problemId}`) % 100;
  return h < 85 ? "train" : h < 90 ? "validation" : "test";
}
