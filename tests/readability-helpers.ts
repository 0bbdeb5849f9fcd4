/** Shared helpers of the readability tests: the IPC-style fixtures of tests/fixtures/readability. */
import { join } from "node:path";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { ROOT } from "./nl-helpers.js";

export const READ_FIXTURES = join(ROOT, "tests", "fixtures", "readability");

/**
 * The fixture domains: costs (transport, floortile), conditional effects and quantified
 * preconditions (lift), derived predicates (power), camelCase, 0-ary and many-ary (rover).
 */
export const FIXTURE_DOMAINS = ["transport", "floortile", "lift", "power", "rover"] as const;

export function fixtureFiles(name: string): { domain: string; problem: string } {
  return { domain: join(READ_FIXTURES, `${name}-domain.pddl`), problem: join(READ_FIXTURES, `${name}-p01.pddl`) };
}

export function readabilityTask(name: string): GroundTask {
  const f = fixtureFiles(name);
  const d = parseDomainFile(f.domain);
  return ground(d, parseProblemFile(f.problem, d));
}
