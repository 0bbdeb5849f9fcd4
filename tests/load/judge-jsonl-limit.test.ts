/**
 * A `judge --jsonl` request over a long plan answers within its limit (issue 50): before, with
 * every h* cached, no search looked at the clock and a 20,000-step request ran 146 s past 30 s.
 * A wall-clock bound: run alone, after the other files (vitest.load.config.ts), so that other
 * test files' work does not stretch it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../cli-run.js";

/** visitgrid p0001 (the robot starts at r3c3): back and forth between two cells, n steps. */
const loop = (n: number): string[] => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "(move r3c3 r3c4)" : "(move r3c4 r3c3)"));

describe("judge --jsonl: a long plan's request answers within its limit", () => {
  it("200,000 steps, --time-ms 1000: 'limit reached' within 10% + 0.5 s, then the next request", async () => {
    const { spawn } = await import("node:child_process");
    const { createInterface } = await import("node:readline");
    const child = spawn(process.execPath, [join(ROOT, "dist", "src", "cli", "main.js"), "judge", "--jsonl", "--time-ms", "1000"], { stdio: ["pipe", "pipe", "pipe"] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ask = async (request: object): Promise<{ id: number; error?: string; steps?: unknown[] }> => {
      child.stdin.write(JSON.stringify(request) + "\n");
      return JSON.parse((await lines.next()).value as string) as { id: number; error?: string; steps?: unknown[] };
    };
    // warm-up: start-up, grounding and the loop's h* values are not part of the measured request
    // (asked again while late: on a machine with other work, the first try may run out of time)
    for (let i = 0; i < 5 && (await ask({ id: 0, domain: "visitgrid", problem: "p0001", steps: loop(4) })).error !== undefined; i++);
    const long = loop(200_000);
    const t0 = performance.now();
    const answer = await ask({ id: 1, domain: "visitgrid", problem: "p0001", steps: long });
    const ms = performance.now() - t0;
    expect(answer.id).toBe(1);
    expect(answer.error).toMatch(/^limit reached: /);
    // before: the request ran for minutes (and out of memory)
    expect(ms).toBeLessThanOrEqual(1000 * 1.1 + 500);
    // stopped by its own clock, not from outside: the thread and its caches are still there
    const next = await ask({ id: 2, domain: "visitgrid", problem: "p0001", steps: loop(2) });
    expect(next.id).toBe(2);
    expect(next.steps).toHaveLength(2);
    child.stdin.end();
    await new Promise((done) => child.on("close", done));
  }, 120_000);
});
