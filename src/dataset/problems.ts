import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseDomain } from "../pddl/index.js";
import { UserError } from "../pddl/errors.js";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir, generateProblems, getBuiltinDomain } from "../generators/index.js";
import { hashString } from "../util/prng.js";
import { readFileSync } from "node:fs";
import type { Split } from "./row.js";

/** A problem of a run, before labelling. */
export interface ProblemSource {
  domainName: string;
  domainFile: string;
  domainText: string;
  problemId: string;
  problemFile: string;
  problemText: string;
  builtinTemplates: string | null;
  templatesFile: string | null;
}

/** Where the problems of a run come from (see `generate --help`). */
export interface ProblemSelection {
  /** Built-in domain names, or ["all"]. */
  domains?: string[];
  domainFile?: string;
  /**
   * A folder of .pddl problems or a glob such as `probs/p*.pddl`; with built-in domains, a
   * folder holding one subfolder per domain (or the problems of the single domain).
   */
  problems?: string;
  /** nl.json templates for a user domain. */
  templatesFile?: string;
  /** Make this many fresh problems per domain with the built-in generator instead of the default set. */
  count?: number;
  seed: number;
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new UserError(`${path}: cannot read file`);
  }
}

function globToRegExp(pattern: string): RegExp {
  let re = "";
  for (const ch of pattern) {
    if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** Problem files named by a folder or a glob (wildcards in the last path segment), sorted by name. */
export function listProblemFiles(spec: string): string[] {
  const isGlob = /[*?]/.test(spec);
  let dir: string;
  let match: (name: string) => boolean;
  if (isGlob) {
    dir = dirname(spec);
    if (/[*?]/.test(dir)) throw new UserError(`--problems ${spec}: wildcards are only supported in the file name`);
    const re = globToRegExp(basename(spec));
    match = (n) => re.test(n);
  } else {
    if (!existsSync(spec)) throw new UserError(`--problems ${spec}: no such file or folder`);
    if (statSync(spec).isFile()) return [resolve(spec)];
    dir = spec;
    // In a folder, every .pddl except domain files is a problem.
    match = (n) => n.toLowerCase().endsWith(".pddl") && !/domain/i.test(n);
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

/** Problem sources of built-in domain `name` from the problem files of a folder or glob. */
function builtinFromFiles(name: string, domainFile: string, domainText: string, spec: string): ProblemSource[] {
  return listProblemFiles(spec).map((file) => ({
    domainName: name,
    domainFile,
    domainText,
    problemId: basename(file).replace(/\.pddl$/i, ""),
    problemFile: file,
    problemText: readText(file),
    builtinTemplates: name,
    templatesFile: null,
  }));
}

/** The problems of a run in their canonical order (domain order as given, then problem name). */
export function resolveProblems(sel: ProblemSelection): ProblemSource[] {
  if (sel.domainFile !== undefined) {
    if (sel.domains && sel.domains.length > 0) throw new UserError("give either --domain or --domain-file, not both");
    if (sel.problems === undefined) throw new UserError("--domain-file needs --problems DIR|GLOB");
    const domainText = readText(sel.domainFile);
    const domain = parseDomain(domainText, sel.domainFile);
    const out: ProblemSource[] = [];
    const seen = new Set<string>();
    for (const file of listProblemFiles(sel.problems)) {
      const problemId = basename(file).replace(/\.pddl$/i, "");
      if (seen.has(problemId)) throw new UserError(`${file}: duplicate problem id '${problemId}'`);
      seen.add(problemId);
      out.push({
        domainName: domain.name,
        domainFile: sel.domainFile,
        domainText,
        problemId,
        problemFile: file,
        problemText: readText(file),
        builtinTemplates: null,
        templatesFile: sel.templatesFile ?? null,
      });
    }
    return out;
  }
  const names = sel.domains ?? [];
  if (names.length === 0) throw new UserError("give --domain NAME (a built-in domain; see `pddl2prm domains`) or --domain-file FILE");
  const expanded = names.includes("all") ? BUILTIN_DOMAINS.map((d) => d.name) : names;
  const out: ProblemSource[] = [];
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
      out.push(...builtinFromFiles(name, domainFile, domainText, spec));
    } else if (sel.count !== undefined) {
      for (const p of generateProblems(name, { count: sel.count, seed: sel.seed })) {
        out.push({
          domainName: name,
          domainFile,
          domainText,
          problemId: p.name,
          problemFile: `generated:${name}/${p.name}.pddl`,
          problemText: p.text,
          builtinTemplates: name,
          templatesFile: null,
        });
      }
    } else {
      out.push(...builtinFromFiles(name, domainFile, domainText, builtinProblemsDir(name)));
    }
  }
  return out;
}

/** The split of a problem: 85/5/10 by a hash of its id; the held-out domain goes to test. */
export function splitOf(domainName: string, problemId: string, holdoutDomain?: string): Split {
  if (holdoutDomain !== undefined && domainName === holdoutDomain) return "test";
  const h = hashString(`${domainName}/${problemId}`) % 100;
  return h < 85 ? "train" : h < 90 ? "validation" : "test";
}
