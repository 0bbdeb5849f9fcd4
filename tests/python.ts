/**
 * Is python3 here for the tests of the shipped Python (python/, bench/learn)? Where CI says it
 * must be (PDDL2PRM_REQUIRE_PYTHON=1, set by .ci/run after installing it), its absence is a
 * failure, not a skip.
 */
import { spawnSync } from "node:child_process";

export const hasPython = spawnSync("python3", ["--version"], { encoding: "utf8" }).status === 0;

/** True when the Python tests should run; throws where python3 is required but missing. */
export function needPython(): boolean {
  if (!hasPython && process.env.PDDL2PRM_REQUIRE_PYTHON === "1") throw new Error("python3 is required here (PDDL2PRM_REQUIRE_PYTHON=1) but not installed");
  return hasPython;
}
