/**
 * A worker of `generate` that fails with no problem in flight (issue 50: a 50 MB problem, --max-
 * memory 2048 --workers 1: the worker ran out of heap after its problem had been stopped at the
 * hard time limit): piscina reports it on the pool, whose 'error' event had no listener, so the
 * process ended with a stack trace and left the folder's lock. The crash itself is a race (a
 * worker stopped at its time limit while at its heap limit) that could not be made to happen on
 * demand: this tests the listener `runJobs` puts on its pool.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { watchPoolErrors } from "../src/dataset/labelling-pool.js";
import { UserError } from "../src/pddl/errors.js";

const oom = (): Error => Object.assign(new Error("Worker terminated due to reaching memory limit: JS heap out of memory"), { code: "ERR_WORKER_OUT_OF_MEMORY" });

describe("generate: errors of workers outside a problem", () => {
  it("without a listener, the pool's 'error' event throws (what crashed the run)", () => {
    expect(() => new EventEmitter().emit("error", oom())).toThrow(/memory limit/);
  });

  it("a worker out of heap with no problem in flight is not a failure: its problem was stopped and recorded", () => {
    const pool = new EventEmitter();
    const w = watchPoolErrors(pool);
    expect(() => pool.emit("error", oom())).not.toThrow();
    expect(w.failure()).toBeNull();
  });

  it("any other error fails the run with one line (a UserError: exit 1, no stack trace)", () => {
    const pool = new EventEmitter();
    const w = watchPoolErrors(pool);
    pool.emit("error", new Error("worker exited with code: 134\n    at somewhere"));
    pool.emit("error", new Error("a later one"));
    const f = w.failure();
    expect(f).toBeInstanceOf(UserError);
    expect(f!.message).toBe("a worker thread failed: worker exited with code: 134");
  });
});
