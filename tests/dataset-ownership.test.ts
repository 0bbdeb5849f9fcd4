import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ownedHashes } from "../src/dataset/ownership.js";
import { fileHash, plainFileHash } from "../src/dataset/reserved.js";
import { writeDataset } from "../src/dataset/write.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-ownership-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("file hashes", () => {
  it("a file read in chunks hashes as its bytes do (sizes around the 1 MiB chunk)", () => {
    for (const size of [0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 17]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 255;
      const f = join(tmp, `f${size}`);
      writeFileSync(f, bytes);
      expect(fileHash(f), `${size} bytes`).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("plainFileHash: null for a folder, a missing file and a path leaving the folder", () => {
    mkdirSync(join(tmp, "d"), { recursive: true });
    expect(plainFileHash(tmp, "d")).toBeNull();
    expect(plainFileHash(tmp, "missing")).toBeNull();
    expect(plainFileHash(tmp, "../x")).toBeNull();
  });
});

describe("ownedHashes with `only`", () => {
  it("answers for the files asked about as the full call does, and examines no other", async () => {
    const out = join(tmp, "ds");
    await writeDataset({ domain: "blocksworld", count: 2, seed: 3, workers: 1, out });
    const all = ownedHashes(out);
    expect([...all.keys()].some((k) => k.startsWith("data/"))).toBe(true);
    const asked = new Set(["README.md", "stats.csv", "manifest.json"]);
    const some = ownedHashes(out, asked);
    for (const rel of asked) expect(some.get(rel), rel).toBe(all.get(rel));
    expect([...some.keys()].filter((k) => k.startsWith("data/") || k.startsWith("pddl/") || k.startsWith("completions/"))).toEqual([]);
  });
});
