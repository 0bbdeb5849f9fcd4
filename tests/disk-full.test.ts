/**
 * A full disk during `generate` (issue 37, finding 4): a one-line error naming the file, the
 * folder as it was (absent for a new dataset; the old dataset byte-identical under --force), and
 * no lock or temporary file left. Each run gets a small tmpfs of its own in a private mount
 * namespace (`unshare -rm`); where the machine allows no such namespace the test is skipped.
 */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "./cli-run.js";

const canMount = process.env["PDDL2PRM_TEST_NO_NAMESPACE"] !== "1" && spawnSync("unshare", ["-rm", "sh", "-c", "mkdir -p /tmp/pddl2prm-ns-probe && mount -t tmpfs -o size=64k tmpfs /tmp/pddl2prm-ns-probe"], { encoding: "utf8" }).status === 0;

/**
 * Run `script` (sh) with $D a fresh tmpfs of `size` (in a private mount namespace), or, where the
 * machine allows none, a fresh folder whose files may not grow past `size` (ulimit -f, SIGXFSZ
 * ignored: the write fails with EFBIG, the same failure path as a full disk). Returns its output.
 */
async function inTmpfs(size: string, script: string): Promise<string> {
  const dir = `/tmp/pddl2prm-full-${process.pid}`;
  const kb = Number(size.replace(/k$/, ""));
  const body = canMount
    ? `mkdir -p ${dir} && mount -t tmpfs -o size=${size} tmpfs ${dir} && D=${dir} && E=${dir}.err && LIMIT=: && ${script}`
    : `rm -rf ${dir} && mkdir -p ${dir} && D=${dir} && E=${dir}.err && trap '' XFSZ && LIMIT="ulimit -f ${kb * 2}" && ${script}; rm -rf ${dir}`;
  // asynchronous: a test of many runs must let vitest's worker answer its runner (setup-yield.ts)
  const child = canMount ? spawn("unshare", ["-rm", "sh", "-c", body], { env: { ...process.env, NODE: process.execPath, CLI } }) : spawn("sh", ["-c", body], { env: { ...process.env, NODE: process.execPath, CLI } });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (status !== 0) throw new Error(`sh: ${stderr}`);
  return stdout;
}

const RUN = `"$NODE" "$CLI" generate --domain ferry --count 10 --workers 1 --quiet`;
/** The run under test, under the file-size limit where that stands in for a full disk. */
const GEN = `($LIMIT; ${RUN}`;
/** After a run: its exit code, its stderr, every file left under $D (sorted) and leftovers. */
// (stderr goes to a file outside the full disk: $E)
const REPORT = `echo "rc=$rc"; echo "err=$(cat $E)"; rm -f $E; echo "files:"; (cd $D && find . -type f | sort | xargs -r sha256sum); echo "leftovers: $(find $D -name '*.tmp-*' -o -name '.pddl2prm-lock*' -o -name '.pddl2prm-next' | wc -l)"`;

describe("a full disk (or a file size limit where no mount namespace can be made)", () => {
  it("a new dataset: at every point the disk fills, one line naming the file, nothing left", async () => {
    let failures = 0;
    for (const size of ["120k", "400k", "900k", "1400k", "1700k", "1880k", "1900k", "1920k"]) {
      const out = await inTmpfs(size, `${GEN} --out $D/out) 2>$E; rc=$?; ${REPORT}`);
      const rc = /rc=(\d+)/.exec(out)![1];
      const err = /err=(.*)/.exec(out)![1]!;
      if (rc === "0") continue;
      failures++;
      expect(rc, size).toBe("1");
      expect(err, size).toMatch(/^pddl2prm: error: \S+: cannot write( the PDDL copy)? \((ENOSPC|EFBIG)/);
      expect(out.split("files:\n")[1]!.split("leftovers")[0]!.trim(), `${size}: files left`).toBe("");
      expect(out, size).toMatch(/leftovers: 0/);
    }
    expect(failures).toBeGreaterThanOrEqual(canMount ? 6 : 4);
  });

  it("--force on a full disk: the old dataset byte-identical, no staging folder, lock or temporary file left", async () => {
    const out = await inTmpfs(
      canMount ? "3000k" : "1000k",
      `${RUN} --out $D/out 2>/dev/null; (cd $D && find . -type f | sort | xargs sha256sum) > /tmp/pddl2prm-before-$$; ` +
        `${GEN} --out $D/out --seed 2 --force) 2>$E; rc=$?; echo "same=$(cd $D && find . -type f | sort | xargs sha256sum | cmp -s - /tmp/pddl2prm-before-$$ && echo yes || echo no)"; rm -f /tmp/pddl2prm-before-$$; ${REPORT}`,
    );
    expect(out).toMatch(/rc=1/);
    expect(out).toMatch(/err=pddl2prm: error: .*\.pddl2prm-next\/\S+: cannot write( the PDDL copy)? \((ENOSPC|EFBIG)/);
    expect(out).toMatch(/same=yes/);
    expect(out).toMatch(/leftovers: 0/);
  });
});

describe.runIf(canMount)("inodes running out during --force (issue 50): one line, the folder old or new, never half", () => {
  it("at every inode count from the old dataset's to the new one's: exit 0 with the new dataset, or exit 1 in one line with the old one byte-identical", async () => {
    // $D is remounted with room for only K more inodes once the old dataset is written
    const script = (k: number) =>
      `${RUN} --out $D/out 2>/dev/null; (cd $D/out && find . -type f | sort | xargs sha256sum) > /tmp/pddl2prm-old-$$; used=$(df --output=iused $D | tail -1); ` +
      `mount -o remount,nr_inodes=$((used + ${k})) $D && ${RUN} --out $D/out --seed 2 --force 2>$E; rc=$?; ` +
      `echo "old=$(cd $D/out && find . -type f | sort | xargs sha256sum | cmp -s - /tmp/pddl2prm-old-$$ && echo yes || echo no)"; rm -f /tmp/pddl2prm-old-$$; ` +
      `echo "seed=$(grep -o '"seed": [0-9]*' $D/out/config.json | head -1)"; ${REPORT}`;
    const fresh = (await inTmpfs("8000k", `${RUN} --out $D/out --seed 2 2>/dev/null; echo "new:"; (cd $D/out && find . -type f | sort | xargs sha256sum)`)).split("new:\n")[1]!.trim();
    let failed = 0;
    for (let k = 2; k <= 70; k += 4) {
      const out = await inTmpfs("8000k", script(k));
      const rc = /rc=(\d+)/.exec(out)![1];
      const err = /err=(.*)/.exec(out)![1]!;
      expect(out, `k=${k}`).toMatch(/leftovers: 0/);
      if (rc === "0") {
        expect(out.split("files:\n")[1]!.split("leftovers")[0]!.trim().replace(/\.\/out\//g, "./"), `k=${k}`).toBe(fresh);
        continue;
      }
      failed++;
      expect(rc, `k=${k}: ${err}`).toBe("1");
      expect(err, `k=${k}`).toMatch(/^pddl2prm: error: \S+: .*\(ENOSPC/);
      expect(err, `k=${k}`).not.toMatch(/internal error|    at /);
      expect(out, `k=${k}: ${err}`).toMatch(/old=yes/);
    }
    expect(failed).toBeGreaterThan(3);
  }, 600_000);
});
