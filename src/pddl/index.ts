/**
 * PDDL front end: parse domain/problem text into the AST of ast.ts (with semantic checks),
 * print it back, and answer type-hierarchy queries.
 */
import { readFileSync } from "node:fs";
import type { Domain, Problem } from "./ast.js";
import { checkDomain, checkProblem } from "./check.js";
import { UserError } from "./errors.js";
import { parseDomainSyntax, parseProblemSyntax } from "./parser.js";

export * from "./ast.js";
export { PddlError, UserError } from "./errors.js";
export { printDomain, printProblem, printFormula, printEffect } from "./printer.js";
export { supertypesOf, objectsOfType, typeParents } from "./types.js";
export { KNOWN_REQUIREMENTS } from "./parser.js";

/** Editors on Windows save UTF-8 with a byte-order mark; it is not part of the text. */
function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parse a domain (syntax + domain-level semantic checks). Throws PddlError with file:line:col. */
export function parseDomain(text: string, file = "<domain>"): Domain {
  const d = parseDomainSyntax(stripBom(text), file);
  checkDomain(d);
  return d;
}

/**
 * Parse a problem. With `domain`, also check it against the domain: domain name, declared
 * objects/constants/predicates/functions/types, arity. Throws PddlError with file:line:col.
 */
export function parseProblem(text: string, file = "<problem>", domain?: Domain): Problem {
  const p = parseProblemSyntax(stripBom(text), file);
  if (domain) checkProblem(p, domain);
  return p;
}

function readPddl(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`${path}: no such file`);
    if (code === "EISDIR") throw new UserError(`${path}: is a directory, expected a file`);
    throw new UserError(`${path}: cannot read (${code ?? String(e)})`);
  }
}

/** Read and parse a domain file; a missing/unreadable file is a UserError. */
export function parseDomainFile(path: string): Domain {
  return parseDomain(readPddl(path), path);
}

/** Read and parse a problem file (checked against `domain` when given); file errors are UserErrors. */
export function parseProblemFile(path: string, domain?: Domain): Problem {
  return parseProblem(readPddl(path), path, domain);
}
