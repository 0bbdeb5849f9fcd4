/**
 * Naming conventions of PDDL files on disk, shared by `generate` and the conformance script:
 * which files of a folder are domain files, and which domain file goes with a problem.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/** A file whose name says it is a domain file (`domain.pddl`, `domain_p01.pddl`, `p01-domain.pddl`). */
export function isDomainFileName(name: string): boolean {
  return /domain/i.test(name);
}

/**
 * The domain file for `problemFile` in folder `dir`, or null: a per-problem domain file first,
 * named after the problem (`domain_<name>.pddl`, `<name>-domain.pddl`, `<name>_domain.pddl`,
 * `domain-<name>.pddl`, where <name> is the problem's file name without `.pddl`, then its
 * leading `pNN` as in IPC trucks or pathways: `p01-domain.pddl` for `p01-airport1-p1.pddl`),
 * else `domain.pddl`. The IPC collection uses all of these.
 */
export function domainFileFor(dir: string, problemFile: string): string | null {
  const name = basename(problemFile).replace(/\.pddl$/i, "");
  const stems = [name];
  const m = /^(p\d+)/i.exec(name);
  if (m && m[1] !== name) stems.push(m[1]!);
  const candidates: string[] = [];
  for (const s of stems) candidates.push(`domain_${s}.pddl`, `${s}-domain.pddl`, `${s}_domain.pddl`, `domain-${s}.pddl`);
  candidates.push("domain.pddl");
  for (const c of candidates) {
    const p = join(dir, c);
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return null;
}
