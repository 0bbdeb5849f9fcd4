/**
 * Parse throughput: `npm run bench:parse` (after `npm run build`). Generates a ~1 MB problem
 * file (a grid-logistics instance) and times parseProblem with domain checks; also times the
 * whole ipc corpus when ../shared/ipc exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseDomain, parseProblem } from "../src/pddl/index.js";

const DOMAIN = `(define (domain bench-grid)
  (:requirements :strips :typing :action-costs)
  (:types place locatable - object truck package - locatable)
  (:predicates (at ?x - locatable ?p - place) (in ?p - package ?t - truck) (road ?a ?b - place))
  (:functions (total-cost) - number (dist ?a ?b - place) - number)
  (:action drive :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (not (at ?t ?a)) (at ?t ?b) (increase (total-cost) (dist ?a ?b))))
  (:action load :parameters (?p - package ?t - truck ?a - place)
    :precondition (and (at ?p ?a) (at ?t ?a))
    :effect (and (not (at ?p ?a)) (in ?p ?t) (increase (total-cost) 1))))
`;

/** A grid problem of about `bytes` characters. */
export function makeProblem(bytes: number): string {
  const n = Math.ceil(Math.sqrt(bytes / 110)); // ~110 bytes of text per grid cell
  const place = (i: number, j: number): string => `place-${i}-${j}`;
  const objs: string[] = [];
  const init: string[] = ["(= (total-cost) 0)"];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      objs.push(place(i, j));
      if (i + 1 < n) init.push(`(road ${place(i, j)} ${place(i + 1, j)})`, `(= (dist ${place(i, j)} ${place(i + 1, j)}) ${1 + ((i * 7 + j) % 9)})`);
      if (j + 1 < n) init.push(`(road ${place(i, j)} ${place(i, j + 1)})`);
    }
  }
  const pk: string[] = [];
  for (let k = 0; k < n; k++) {
    pk.push(`pkg${k}`);
    init.push(`(at pkg${k} ${place(k % n, (k * 3) % n)})`);
  }
  init.push(`(at truck0 ${place(0, 0)})`);
  return `; generated benchmark problem\n(define (problem bench-${n})\n  (:domain bench-grid)\n  (:objects ${objs.join(" ")} - place\n    ${pk.join(" ")} - package truck0 - truck)\n  (:init\n    ${init.join("\n    ")})\n  (:goal (and ${pk.map((p, k) => `(at ${p} ${place((k * 5) % n, k % n)})`).join(" ")}))\n  (:metric minimize (total-cost)))\n`;
}

let lastCpuMs = 0;
/** Wall-clock ms of fn; its CPU ms (user+system, less sensitive to a loaded machine) in lastCpuMs. */
function time<T>(fn: () => T): [T, number] {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  lastCpuMs = (c.user + c.system) / 1000;
  return [r, ms];
}

function main(): void {
  const domain = parseDomain(DOMAIN, "bench-domain.pddl");
  const text = makeProblem(1_000_000);
  const mb = Buffer.byteLength(text) / 1e6;
  // First run includes JIT warm-up; report it and the best of 5.
  const [p, first] = time(() => parseProblem(text, "bench-problem.pddl", domain));
  const firstCpu = lastCpuMs;
  let best = Infinity;
  let bestCpu = Infinity;
  for (let i = 0; i < 5; i++) {
    best = Math.min(best, time(() => parseProblem(text, "bench-problem.pddl", domain))[1]);
    bestCpu = Math.min(bestCpu, lastCpuMs);
  }
  console.log(`generated problem: ${mb.toFixed(2)} MB, ${p.objects.length} objects, ${p.init.length} init elements`);
  console.log(`parse+check (cold, first call): ${first.toFixed(0)} ms wall, ${firstCpu.toFixed(0)} ms cpu`);
  console.log(`parse+check (warm, best of 5):  ${best.toFixed(0)} ms wall, ${bestCpu.toFixed(0)} ms cpu`);
  console.log(`throughput (warm): ${(mb / (best / 1000)).toFixed(1)} MB/s wall, ${(mb / (bestCpu / 1000)).toFixed(1)} MB/s cpu`);

  const ipc = join(process.cwd(), "..", "shared", "ipc");
  if (existsSync(ipc)) {
    let bytes = 0;
    let files = 0;
    const [, ms] = time(() => {
      for (const d of readdirSync(ipc).sort()) {
        const dir = join(ipc, d);
        for (const f of readdirSync(dir).sort()) {
          if (!f.endsWith(".pddl")) continue;
          const t = readFileSync(join(dir, f), "utf8");
          bytes += t.length;
          files++;
          if (/domain/i.test(f)) parseDomain(t, f);
          else parseProblem(t, f);
        }
      }
    });
    console.log(`ipc corpus: ${files} files, ${(bytes / 1e6).toFixed(2)} MB in ${ms.toFixed(0)} ms, ${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
