/**
 * docs/scale-out.md runs as written: pack the package, install the tarball the way the doc says,
 * then run the doc's Slurm script and Kubernetes command (paths moved under a temporary folder,
 * `--domain all --world 16` made small) and merge. Uses the npm cache where it can.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "./temp-dir.js";

const ROOT = resolve(__dirname, "..");
const doc = readFileSync(join(ROOT, "docs", "scale-out.md"), "utf8");
const blocks = (lang: string): string[] => [...doc.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

/** Run a program without blocking the test worker (these steps take tens of seconds). */
function run(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((done, fail) => {
    execFile(file, args, { ...opts, encoding: "utf8", maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${file} ${args.join(" ")} failed: ${stderr}`));
      else done(stdout);
    });
  });
}

describe("docs/scale-out.md from a packed package", () => {
  it("installs the tarball as written and runs the Slurm and Kubernetes recipes", async () => {
    const tmp = testTempDir("pddl2prm-pack-");
    const small = (text: string) =>
      text
        .replaceAll("/shared/", `${tmp}/shared/`)
        .replaceAll("/data/", `${tmp}/data/`)
        .replace(/--domain(", "|\s+)all/, (_m, sep: string) => `--domain${sep}blocksworld${sep}--count${sep}2`)
        .replace(/--world(", "|\s+)"?16"?/, (m) => m.replace("16", "2"));
    const env = { ...process.env, npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
    const sh = (script: string, extra: Record<string, string> = {}) => run("bash", ["-euo", "pipefail", "-c", script], { cwd: tmp, env: { ...env, ...extra } });

    // `npm install && npm pack` in a checkout: dist/ is built already (npm test builds it first)
    const install = blocks("sh").find((b) => b.includes("npm pack"))!;
    expect(install).toMatch(/npm install && npm pack/);
    await run("npm", ["pack", "--ignore-scripts", "--pack-destination", tmp], { cwd: ROOT, env });
    expect(readdirSync(tmp).filter((n) => /^pddl2prm-.*\.tgz$/.test(n))).toHaveLength(1);
    const installLine = install.split("\n").find((l) => l.startsWith("npm install --prefix"))!;
    await sh(small(installLine));
    const bin = join(tmp, "shared", "tools", "pddl2prm", "node_modules", ".bin", "pddl2prm");
    expect(await sh(`"${bin}" domains`)).toContain("blocksworld");

    // the Slurm array: the script as written, once per array index, then the merge line
    const sbatch = blocks("sh").find((b) => b.includes("#SBATCH"))!;
    const script = join(tmp, "generate.sbatch");
    writeFileSync(script, small(sbatch));
    for (const rank of ["0", "1"]) await sh(`bash ${script}`, { SLURM_ARRAY_TASK_ID: rank, SLURM_CPUS_PER_TASK: "1" });
    const merge = blocks("sh").find((b) => b.includes(" merge "))!;
    expect(await sh(small(merge))).toMatch(/merged 2 rank\(s\)/);
    const slurm = JSON.parse(readFileSync(join(tmp, "shared", "datasets", "pddl2prm-v1", "manifest.json"), "utf8")) as { rows: number; world: number };
    expect(slurm.world).toBe(2);

    // the Kubernetes command array, with the volume installed as the doc says
    mkdirSync(join(tmp, "data"), { recursive: true });
    await sh(small(doc.match(/`(npm install --prefix \/data\/[^`]*)`/)![1]!));
    const yaml = blocks("yaml")[0]!;
    const command = JSON.parse(small(yaml.match(/command: (\[[\s\S]*?\])/)![1]!)) as string[];
    for (const index of ["0", "1"]) await run(command[0]!, command.slice(1), { cwd: tmp, env: { ...env, JOB_COMPLETION_INDEX: index } });
    const k8s = JSON.parse(readFileSync(join(tmp, "data", "pddl2prm-v1", "manifest.json"), "utf8")) as { rows: number };

    // both are exactly the single-machine run of the checkout
    const single = join(tmp, "single");
    await run(process.execPath, [join(ROOT, "dist", "src", "cli", "main.js"), "generate", "--domain", "blocksworld", "--count", "2", "--seed", "1", "--out", single, "--quiet", "--gzip"], { cwd: tmp, env });
    const one = JSON.parse(readFileSync(join(single, "manifest.json"), "utf8")) as { rows: number };
    expect(slurm.rows).toBe(one.rows);
    expect(k8s.rows).toBe(one.rows);
  }, 300_000);
});
