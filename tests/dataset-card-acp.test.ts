import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeDataset } from "../src/dataset/write.js";
import { datasetAuditor } from "../src/audit/index.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-card-acp-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the card of an acp run (issue 52)", () => {
  it("describes questions, kinds and forms and its audit; nothing of step-reward rows", async () => {
    const out = join(tmp, "acp");
    await writeDataset({ domain: "ferry", count: 2, seed: 3, workers: 1, out, format: "acp", audit: datasetAuditor });
    const card = readFileSync(join(out, "README.md"), "utf8");
    expect(card).toContain("# pddl2prm reasoning questions");
    expect(card).toMatch(/applicability, progression, reachability/);
    expect(card).toContain("a choice of four options");
    expect(card).toMatch(/`pddl2prm audit` \(how well a question's words/);
    expect(card).not.toContain("one candidate next step");
    expect(card).not.toMatch(/^\| category \|/m);
    expect(card).not.toContain("`meta.action` replay");
  });
});
