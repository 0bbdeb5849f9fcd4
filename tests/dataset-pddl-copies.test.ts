import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PddlCopies } from "../src/dataset/pddl-copies.js";

const roots: string[] = [];
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), "pddl2prm-copies-"));
  roots.push(d);
  return d;
}
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("PddlCopies", () => {
  it("writes every copy once (many at a time), with no temporary file left", async () => {
    const out = folder();
    const c = new PddlCopies(out);
    for (let i = 0; i < 200; i++) {
      c.add(join("pddl", `d${i % 3}`, "domain.pddl"), `domain ${i % 3}`);
      c.add(join("pddl", `d${i % 3}`, `p${i}.pddl`), `problem ${i}`);
    }
    await c.finish();
    for (let i = 0; i < 200; i++) expect(readFileSync(join(out, "pddl", `d${i % 3}`, `p${i}.pddl`), "utf8")).toBe(`problem ${i}`);
    // the first text of a path wins: later adds of it are not written again
    expect(readFileSync(join(out, "pddl", "d1", "domain.pddl"), "utf8")).toBe("domain 1");
    const names = ["d0", "d1", "d2"].flatMap((d) => readdirSync(join(out, "pddl", d)));
    expect(names.filter((n) => n.includes(".tmp-"))).toEqual([]);
    expect(names.length).toBe(203);
  });

  it("undo removes what this run created and keeps what was there", async () => {
    const out = folder();
    mkdirSync(join(out, "pddl", "old"), { recursive: true });
    writeFileSync(join(out, "pddl", "old", "keep.pddl"), "keep");
    const c = new PddlCopies(out);
    c.add(join("pddl", "old", "keep.pddl"), "keep");
    c.add(join("pddl", "old", "new.pddl"), "new");
    c.add(join("pddl", "fresh", "p1.pddl"), "p1");
    await c.finish();
    await c.undo();
    expect(readFileSync(join(out, "pddl", "old", "keep.pddl"), "utf8")).toBe("keep");
    expect(existsSync(join(out, "pddl", "old", "new.pddl"))).toBe(false);
    expect(existsSync(join(out, "pddl", "fresh"))).toBe(false);

    const out2 = folder();
    const c2 = new PddlCopies(out2);
    for (let i = 0; i < 50; i++) c2.add(join("pddl", "d", `p${i}.pddl`), "x");
    await c2.undo(); // while writes are in progress
    expect(existsSync(join(out2, "pddl"))).toBe(false);
  });

  it("finish reports a write that failed", async () => {
    const out = folder();
    writeFileSync(join(out, "pddl"), "a file where the folder should be");
    const c = new PddlCopies(out);
    c.add(join("pddl", "d", "p1.pddl"), "x");
    await expect(c.finish()).rejects.toThrow(/pddl\/d\/p1\.pddl: cannot write the PDDL copy \(E[A-Z]+\)/);
  });
});
