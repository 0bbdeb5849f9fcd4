import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PddlCopies } from "../src/dataset/pddl-copies.js";
import { UserError } from "../src/pddl/errors.js";
import { writeDataset } from "../src/dataset/write.js";

const roots: string[] = [];
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), "pddl2prm-copies-"));
  roots.push(d);
  return d;
}
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("PddlCopies", () => {
  it("writes every copy once, with no temporary file left", () => {
    const out = folder();
    const c = new PddlCopies(out);
    for (let i = 0; i < 200; i++) {
      c.add(join("pddl", `d${i % 3}`, "domain.pddl"), `domain ${i % 3}`);
      c.add(join("pddl", `d${i % 3}`, `p${i}.pddl`), `problem ${i}`);
    }
    for (let i = 0; i < 200; i++) expect(readFileSync(join(out, "pddl", `d${i % 3}`, `p${i}.pddl`), "utf8")).toBe(`problem ${i}`);
    // the first text of a path wins: later adds of it are not written again
    expect(readFileSync(join(out, "pddl", "d1", "domain.pddl"), "utf8")).toBe("domain 1");
    const names = ["d0", "d1", "d2"].flatMap((d) => readdirSync(join(out, "pddl", d)));
    expect(names.filter((n) => n.includes(".tmp-"))).toEqual([]);
    expect(names.length).toBe(203);
  });

  it("undo removes what this run created and keeps what was there", () => {
    const out = folder();
    mkdirSync(join(out, "pddl", "old"), { recursive: true });
    writeFileSync(join(out, "pddl", "old", "keep.pddl"), "keep");
    const c = new PddlCopies(out);
    c.add(join("pddl", "old", "keep.pddl"), "keep");
    c.add(join("pddl", "old", "new.pddl"), "new");
    c.add(join("pddl", "fresh", "p1.pddl"), "p1");
    c.undo();
    expect(readFileSync(join(out, "pddl", "old", "keep.pddl"), "utf8")).toBe("keep");
    expect(existsSync(join(out, "pddl", "old", "new.pddl"))).toBe(false);
    expect(existsSync(join(out, "pddl", "fresh"))).toBe(false);

    const out2 = folder();
    const c2 = new PddlCopies(out2);
    for (let i = 0; i < 50; i++) c2.add(join("pddl", "d", `p${i}.pddl`), "x");
    c2.undo();
    expect(existsSync(join(out2, "pddl"))).toBe(false);
  });

  it("addUnique writes each copy and undo removes the ones this run created, over many chunks", () => {
    const out = folder();
    mkdirSync(join(out, "pddl", "d"), { recursive: true });
    writeFileSync(join(out, "pddl", "d", "s2-p00007.pddl"), "was here");
    const c = new PddlCopies(out);
    const n = 1300; // more than two chunks of names
    for (let i = 0; i < n; i++) c.addUnique(join("pddl", "d", `s2-p${String(i).padStart(5, "0")}.pddl`), `problem ${i}`);
    c.add(join("pddl", "d", "domain.pddl"), "domain");
    expect(readdirSync(join(out, "pddl", "d")).length).toBe(n + 1);
    expect(readFileSync(join(out, "pddl", "d", "s2-p01299.pddl"), "utf8")).toBe("problem 1299");
    c.undo();
    // the file that was there before stays (overwritten, as a run does), the rest goes
    expect(readdirSync(join(out, "pddl", "d"))).toEqual(["s2-p00007.pddl"]);
  });

  it("a copy that cannot be written is a user error naming it, and undo leaves nothing of it", () => {
    const out = folder();
    writeFileSync(join(out, "pddl"), "a file where the folder should be");
    const c = new PddlCopies(out);
    expect(() => c.add(join("pddl", "d", "p1.pddl"), "x")).toThrow(UserError);
    expect(() => c.add(join("pddl", "d", "p2.pddl"), "x")).toThrow(/pddl\/d\/p2\.pddl: cannot write the PDDL copy \(E[A-Z]+\)/);
    c.undo();
    expect(readFileSync(join(out, "pddl"), "utf8")).toBe("a file where the folder should be");

    const out2 = folder();
    mkdirSync(join(out2, "pddl", "d"), { recursive: true });
    mkdirSync(join(out2, "pddl", "d", "p1.pddl")); // a folder where the file should be
    const c2 = new PddlCopies(out2);
    c2.add(join("pddl", "d", "p0.pddl"), "x");
    expect(() => c2.add(join("pddl", "d", "p1.pddl"), "x")).toThrow(/p1\.pddl: cannot write the PDDL copy/);
    expect(readdirSync(join(out2, "pddl", "d")).sort()).toEqual(["p0.pddl", "p1.pddl"]); // no temporary file left
    c2.undo();
    expect(readdirSync(join(out2, "pddl", "d"))).toEqual(["p1.pddl"]);
  });

  it("a run whose copy fails stops with the error and leaves the folder as it was (no shards, no config)", async () => {
    // (pddl2prm writes only into its own folders: the obstacle sits in the staging folder of a
    // forced run over an older dataset, which must stay as it was)
    const out = folder();
    await writeDataset({ domain: "hanoi", count: 3, seed: 1, workers: 1, out });
    const before = readdirSync(out, { recursive: true }).sort();
    mkdirSync(join(out, ".pddl2prm-next", "pddl"), { recursive: true });
    writeFileSync(join(out, ".pddl2prm-next", "pddl", "hanoi"), "a file where the folder should be");
    // the staging folder of an earlier forced run with these settings (its config.json, written
    // first by every run): a folder of that name without one would be the user's, and refused
    const same = folder();
    await writeDataset({ domain: "hanoi", count: 3, seed: 2, workers: 1, out: same });
    writeFileSync(join(out, ".pddl2prm-next", "config.json"), readFileSync(join(same, "config.json")));
    await expect(writeDataset({ domain: "hanoi", count: 3, seed: 2, workers: 1, out, force: true })).rejects.toThrow(
      /pddl\/hanoi\/domain\.pddl: cannot write the PDDL copy \((ENOTDIR|EEXIST)\)/,
    );
    expect(readdirSync(join(out, ".pddl2prm-next")).sort()).toEqual(["config.json", "pddl"]);
    expect(readdirSync(join(out, ".pddl2prm-next", "pddl"))).toEqual(["hanoi"]);
    expect(readdirSync(out, { recursive: true }).filter((n) => !String(n).startsWith(".pddl2prm-next")).sort()).toEqual(before);
  });

});
