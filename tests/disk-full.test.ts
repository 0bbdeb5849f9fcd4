/**
 * A full disk during `generate` (issue 37, finding 4): a one-line error naming the file, the
 * folder as it was (absent for a new dataset; the old dataset byte-identical under --force), and
 * no lock or temporary file left. Each run gets a small tmpfs of its own in a private mount
 * namespace (`unshare -rm`); where the machine allows no such namespace the test is skipped.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "./cli-run.js";

const canMount = spawnSync("unshare", ["-rm", "sh", "-c", "mkdir -p /tmp/pddl2prm-ns-probe && mount -t tmpfs -o size=64k tmpfs /tmp/pddl2prm-ns-probe"], { encoding: "utf8" }).status === 0;

/** Run `script` (sh) with $D a fresh tmpfs of `size`; returns what it prints. */
function inTmpfs(size: string, script: string): string {
  const dir = `/tmp/pddl2prm-full-${process.pid}`;
  const r = spawnSync("unshare", ["-rm", "sh", "-c", `mkdir -p ${dir} && mount -t tmpfs -o size=${size} tmpfs ${dir} && D=${dir} && E=${dir}.err && ${script}`], {
    encoding: "utf8",
    env: { ...process.env, NODE: process.execPath, CLI },
  });
  if (r.status !== 0) throw new Error(`unshare: ${r.stderr}`);
  return r.stdout;
}

const GEN = `"$NODE" "$CLI" generate --domain ferry --count 10 --workers 1 --quiet`;
/** After a run: its exit code, its stderr, every file left under $D (sorted) and leftovers. */
// (stderr goes to a file outside the full disk: $E)
const REPORT = `echo "rc=$rc"; echo "err=$(cat $E)"; rm -f $E; echo "files:"; (cd $D && find . -type f | sort | xargs -r sha256sum); echo "leftovers: $(find $D -name '*.tmp-*' -o -name '.pddl2prm-lock*' -o -name '.pddl2prm-next' | wc -l)"`;

describe.skipIf(!canMount)("a full disk", () => {
  it("a new dataset: at every point the disk fills, one line naming the file, nothing left", () => {
    let failures = 0;
    for (const size of ["120k", "400k", "900k", "1400k", "1700k", "1880k", "1900k", "1920k"]) {
      const out = inTmpfs(size, `${GEN} --out $D/out 2>$E; rc=$?; ${REPORT}`);
      const rc = /rc=(\d+)/.exec(out)![1];
      const err = /err=(.*)/.exec(out)![1]!;
      if (rc === "0") continue;
      failures++;
      expect(rc, size).toBe("1");
      expect(err, size).toMatch(/^pddl2prm: error: \S+: cannot write( the PDDL copy)? \(ENOSPC/);
      expect(out.split("files:\n")[1]!.split("leftovers")[0]!.trim(), `${size}: files left`).toBe("");
      expect(out, size).toMatch(/leftovers: 0/);
    }
    expect(failures).toBeGreaterThanOrEqual(6);
  });

  it("--force on a full disk: the old dataset byte-identical, no staging folder, lock or temporary file left", () => {
    const out = inTmpfs(
      "3000k",
      `${GEN} --out $D/out 2>/dev/null; (cd $D && find . -type f | sort | xargs sha256sum) > /tmp/pddl2prm-before-$$; ` +
        `${GEN} --out $D/out --seed 2 --force 2>$E; rc=$?; echo "same=$(cd $D && find . -type f | sort | xargs sha256sum | cmp -s - /tmp/pddl2prm-before-$$ && echo yes || echo no)"; rm -f /tmp/pddl2prm-before-$$; ${REPORT}`,
    );
    expect(out).toMatch(/rc=1/);
    expect(out).toMatch(/err=pddl2prm: error: .*\.pddl2prm-next\/\S+: cannot write( the PDDL copy)? \(ENOSPC/);
    expect(out).toMatch(/same=yes/);
    expect(out).toMatch(/leftovers: 0/);
  });
});
