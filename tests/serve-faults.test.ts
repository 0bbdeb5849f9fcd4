/**
 * `pddl2prm serve` under faults (issue 53): garbage, malformed and oversized requests, a slow
 * client, a client that goes away mid-request, 1,000 requests in a burst against a small queue (503 + Retry-After,
 * every other answer right), a request past its --time-ms (alone, and inside a batch: searching,
 * or still parsing when its worker is stopped), SIGTERM under load, a port in use and bad flags.
 * After each, the server still answers; exit codes are clean.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hard15, writeSlowToParse } from "./hard-problems.js";
import { cliRunner, ROOT } from "./cli-run.js";
import { cliLines, post, startServer, type RunningServer } from "./serve-helpers.js";

const cli = cliRunner(ROOT);
const plan = ["(unstack b4 b3)", "(put-down b4)", "(pick-up b3)", "(stack b3 b4)", "(pick-up b2)", "(stack b2 b3)"];
const req = (id: number): Record<string, unknown> => ({
  id,
  domain: "blocksworld",
  problem: ["p0001", "p0002", "p0003"][id % 3],
  completion: `I will move the blocks.\n${plan.slice(0, 1 + (id % plan.length)).map((a, i) => `${i + 1}. ${a}`).join("\n")}\nDone.`,
});

/** Send raw bytes on a fresh connection; the text the server sends back before closing (or `ms` passing). */
function raw(port: number, data: string, ms = 10_000): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    let got = "";
    const timer = setTimeout(() => {
      s.destroy();
      resolve(got);
    }, ms);
    s.on("data", (c) => (got += c.toString()));
    s.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
    s.on("error", () => undefined);
    s.write(data);
  });
}

async function healthy(url: string): Promise<void> {
  const r = await post(`${url}/reward`, JSON.stringify(req(1)));
  expect(r.status).toBe(200);
  expect((JSON.parse(r.text) as { id: number }).id).toBe(1);
}

describe("serve: faults", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(["--workers", "1", "--max-body", "4096", "--read-timeout-ms", "1500"]);
  }, 60_000);
  afterAll(async () => {
    const e = await server.stop();
    expect(e).toEqual({ code: 0, signal: null });
  });

  it("garbage, wrong shapes, unknown paths and methods: a 4xx with a one-line reason", { timeout: 60_000 }, async () => {
    const cases: [string, string, number, RegExp][] = [
      ["/reward", "{not json", 400, /^\{"error":"not JSON: /],
      ["/reward", "", 400, /the body is empty/],
      ["/reward", "[1, 2]", 400, /bad request/],
      ["/reward", '{"domain": "blocksworld", "problem": "p0001"}', 400, /bad request: completion/],
      ["/reward", '{"domain": "blocksworld", "problem": "p0001", "completion": "x", "extra": 1}', 400, /bad request/],
      ["/reward", '{"domain": "(define (domain x)", "problem": "p", "completion": "x"}', 400, /error/],
      ["/judge", '{"domain": "blocksworld", "problem": "p0001"}', 400, /bad request: steps/],
      ["/batch", "\u0000\u0001\u00ff garbage", 400, /not JSON/],
      ["/batch", '{"requests": 5}', 400, /the body must be \{/],
      ["/batch", '{"requests": [], "kind": "x"}', 400, /kind must be/],
      ["/batch", "null", 400, /must be a JSON object/],
      ["/get_reward", '{"query": "x", "labels": []}', 400, /query must be a list of strings/],
      ["/get_reward", '{"query": ["x"]}', 400, /labels must be a list/],
      ["/get_reward", '{"query": ["x", "y"], "labels": ["blocksworld/p0001"]}', 400, /2 queries but 1 labels/],
      ["/get_reward", '{"query": ["x"], "labels": [42]}', 400, /labels\[0\]: a label must be/],
      ["/get_reward", '{"query": ["x"], "labels": ["nowhere/p1"]}', 400, /labels\[0\]: the label 'nowhere\/p1' is not a problem reference/],
      ["/nope", "{}", 404, /no such endpoint: \/nope/],
    ];
    for (const [path, body, status, re] of cases) {
      const r = await post(`${server.url}${path}`, body);
      expect([path, body, r.status]).toEqual([path, body, status]);
      expect(r.text).toMatch(re);
      expect(r.text.endsWith("\n")).toBe(true);
      expect(r.text.trimEnd().split("\n")).toHaveLength(1);
    }
    const g = await fetch(`${server.url}/reward`);
    expect(g.status).toBe(405);
    expect(g.headers.get("allow")).toBe("POST");
    const p = await post(`${server.url}/metrics`, "");
    expect(p.status).toBe(405);
    expect(p.headers.get("allow")).toBe("GET, HEAD");
    // not HTTP at all
    expect(await raw(server.port, "HELLO THERE\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    await healthy(server.url);
  });

  it("a body over --max-body: 413 (declared, or streamed without a length); the server goes on", { timeout: 60_000 }, async () => {
    const big = JSON.stringify({ domain: "blocksworld", problem: "p0001", completion: "x".repeat(100_000) });
    const r = await post(`${server.url}/reward`, big);
    expect(r.status).toBe(413);
    expect(r.text).toMatch(/more than --max-body 4096/);
    // chunked, no Content-Length
    const chunked = await raw(server.port, `POST /batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${(20000).toString(16)}\r\n${"y".repeat(20000)}\r\n0\r\n\r\n`);
    expect(chunked).toMatch(/^HTTP\/1\.1 413/);
    // a huge declared length is refused before it is read
    const declared = await raw(server.port, `POST /reward HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n{`);
    expect(declared).toMatch(/^HTTP\/1\.1 413/);
    await healthy(server.url);
  });

  it("a slow client is cut off after --read-timeout-ms; others are served meanwhile", { timeout: 60_000 }, async () => {
    const t0 = Date.now();
    const slow = raw(server.port, `POST /reward HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"domain": "blocks`, 30_000);
    await healthy(server.url);
    const got = await slow;
    // closed by the server (408 or a plain close), long before our 30 s
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(got === "" || /^HTTP\/1\.1 408/.test(got)).toBe(true);
    await healthy(server.url);
  });

  it("a client that disconnects mid-body or while waiting: the server goes on, nothing stays in flight", { timeout: 60_000 }, async () => {
    // mid-body
    await new Promise<void>((resolve) => {
      const s = connect(server.port, "127.0.0.1", () => {
        s.write(`POST /reward HTTP/1.1\r\nHost: x\r\nContent-Length: 300\r\n\r\n{"domain": "blocksworld", `);
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 200);
      });
    });
    // while its (slow) request waits for a worker and is judged
    const ac = new AbortController();
    const hard = fetch(`${server.url}/batch`, {
      method: "POST",
      body: JSON.stringify({ requests: [req(2), req(3), req(4)] }),
      signal: ac.signal,
    }).catch((e: Error) => e);
    setTimeout(() => ac.abort(), 5);
    expect(await hard).toBeInstanceOf(Error);
    await healthy(server.url);
    // in flight: only the /metrics request itself, eventually
    let inFlight = -1;
    for (let i = 0; i < 50 && inFlight !== 1; i++) {
      const m = await (await fetch(`${server.url}/metrics`)).text();
      inFlight = Number(/^pddl2prm_requests_in_flight (\d+)$/m.exec(m)![1]);
      if (inFlight !== 1) await new Promise((r) => setTimeout(r, 100));
    }
    expect(inFlight).toBe(1);
  });
});

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-serve-faults-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * POST /batch with a slow request at index 3 among 13 others: every other answer is the line
 * `reward --jsonl` prints for it, the slow one a limit error, all within the limit and a margin.
 */
async function batchAroundSlow(url: string, slow: Record<string, unknown>): Promise<{ id: unknown; error?: string }> {
  const reqs = Array.from({ length: 14 }, (_, i) => (i === 3 ? slow : req(i)));
  const fast = reqs.filter((r) => r !== slow);
  const expected = await cliLines(["reward", "--jsonl"], fast.map((r) => JSON.stringify(r) + "\n").join(""));
  const t0 = Date.now();
  const r = await post(`${url}/batch`, JSON.stringify({ requests: reqs }));
  const ms = Date.now() - t0;
  expect(r.status).toBe(200);
  const results = (JSON.parse(r.text) as { results: { id: unknown; error?: string }[] }).results;
  expect(results).toHaveLength(14);
  expect(results.filter((_, i) => i !== 3).map((x) => JSON.stringify(x))).toEqual(expected);
  expect(ms).toBeLessThan(1500 + 8000);
  return results[3]!;
}

describe("serve: limits, load and shutdown", () => {
  it("a batch with a request past --time-ms: an idle worker takes the lines queued behind it, all answered right", { timeout: 120_000 }, async () => {
    // 2 workers, 7 lines each: the one searching past its limit holds up only itself
    const server = await startServer(["--workers", "2", "--time-ms", "1500"]);
    try {
      const hard = await batchAroundSlow(server.url, { id: "hard", domain: "npuzzle", problem: hard15(), completion: "(move t6 p20 p21)" });
      expect(hard).toEqual({ id: "hard", error: expect.stringMatching(/^limit reached: /) });
      await healthy(server.url);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it("a batch with a request still parsing past --time-ms: its worker is stopped, no answer made before is lost", { timeout: 180_000 }, async () => {
    // the lines judged before it in the same worker went out before the parse began
    const { domain, problem } = await writeSlowToParse(tmp);
    const server = await startServer(["--workers", "2", "--time-ms", "1500"]);
    try {
      const big = await batchAroundSlow(server.url, { id: "big", domain, problem, completion: "(go c0 c1)" });
      expect(big).toEqual({ id: "big", error: "limit reached: the time limit of 1500 ms is reached (--time-ms, parsing included)" });
      await healthy(server.url);
      const m = await (await fetch(`${server.url}/metrics`)).text();
      expect(m).toMatch(/^pddl2prm_worker_restarts_total 1$/m);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it("a request past --time-ms gets a clean limit error; the server keeps serving", { timeout: 120_000 }, async () => {
    const server = await startServer(["--workers", "1", "--time-ms", "1500"]);
    try {
      const t0 = Date.now();
      const r = await post(`${server.url}/reward`, JSON.stringify({ id: "hard", domain: "npuzzle", problem: hard15(), completion: "(move t6 p20 p21)" }));
      const ms = Date.now() - t0;
      expect(r.status).toBe(200);
      const body = JSON.parse(r.text) as { id: string; error?: string };
      expect(body.id).toBe("hard");
      expect(body.error).toMatch(/^limit reached: /);
      // within the limit, its grace and a generous margin for a loaded machine
      expect(ms).toBeLessThan(1500 + 8000);
      await healthy(server.url);
      const m = await (await fetch(`${server.url}/metrics`)).text();
      expect(m).toMatch(/^pddl2prm_errors_total\{reason="limit"\} 1$/m);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it("1,000 requests in a burst against --queue 4: some 503 with Retry-After, every other answer right", { timeout: 240_000 }, async () => {
    const reqs = Array.from({ length: 1000 }, (_, i) => req(i));
    const expected = await cliLines(["reward", "--jsonl"], reqs.map((r) => JSON.stringify(r) + "\n").join(""));
    const server = await startServer(["--workers", "1", "--queue", "4"]);
    try {
      const answers = await Promise.all(reqs.map((r) => post(`${server.url}/reward`, JSON.stringify(r))));
      let busy = 0;
      answers.forEach((a, i) => {
        if (a.status === 503) {
          busy++;
          expect(Number(a.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          expect(a.text).toMatch(/queue is full/);
        } else {
          expect(a.status).toBe(200);
          expect(a.text).toBe(expected[i] + "\n");
        }
      });
      expect(busy).toBeGreaterThan(0);
      expect(busy).toBeLessThan(1000);
      // a full queue empties: everything is answered afterwards
      for (let i = 0; i < 5; i++) expect((await post(`${server.url}/reward`, JSON.stringify(reqs[i]))).text).toBe(expected[i] + "\n");
      const m = await (await fetch(`${server.url}/metrics`)).text();
      expect(m).toMatch(new RegExp(`^pddl2prm_requests_total\\{endpoint="/reward",code="503"\\} ${busy}$`, "m"));
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it("SIGTERM under load: requests in flight finish (or get a clean 503), the process exits 0", { timeout: 180_000 }, async () => {
    const reqs = Array.from({ length: 40 }, (_, i) => req(i));
    const expected = await cliLines(["reward", "--jsonl"], reqs.map((r) => JSON.stringify(r) + "\n").join(""));
    const server = await startServer(["--workers", "2", "--time-ms", "4000"]);
    // a batch of the 40 and single requests, then SIGTERM while they are being judged
    const batch = post(`${server.url}/batch`, JSON.stringify({ requests: [...reqs, { id: "hard", domain: "npuzzle", problem: hard15(), completion: "(move t6 p20 p21)" }] }));
    const singles = reqs.slice(0, 10).map((r) => post(`${server.url}/reward`, JSON.stringify(r)).catch((e: Error) => e));
    await new Promise((r) => setTimeout(r, 300));
    server.proc.kill("SIGTERM");
    const b = await batch;
    expect(b.status).toBe(200);
    const results = (JSON.parse(b.text) as { results: unknown[] }).results;
    expect(results.slice(0, 40).map((x) => JSON.stringify(x))).toEqual(expected);
    // the hard one is bounded by its limit
    for (const [i, s] of (await Promise.all(singles)).entries()) {
      if (s instanceof Error) continue; // sent after the listener closed: refused, nothing half-done
      if (s.status === 503) expect(s.text).toMatch(/shutting down/);
      else expect(s.text).toBe(expected[i] + "\n");
    }
    const e = await server.exited;
    expect(e).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toMatch(/SIGTERM: finishing \d+ requests in flight/);
    expect(server.stderr()).toMatch(/pddl2prm serve: stopped/);
    expect(server.stderr()).not.toMatch(/internal error|at .*\.js:\d+/);
  });

  it("a port in use and bad flags: one line, exit 1 or 2, no stack trace", { timeout: 120_000 }, async () => {
    const server = await startServer(["--workers", "1"]);
    try {
      const r = await cli(["serve", "--port", String(server.port), "--workers", "1"]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toEqual([`pddl2prm: error: cannot listen on 127.0.0.1:${server.port}: the address is in use (another --port?)`]);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
    for (const [args, re] of [
      [["--workers", "0"], /--workers must be >= 1/],
      [["--port", "70000"], /--port must be <= 65535/],
      [["--queue", "x"], /--queue expects an integer/],
      [["--max-body", "10"], /--max-body must be >= 1024/],
      [["--outcome-weight", "2"], /--outcome-weight must be a number in \[0, 1\]/],
    ] as [string[], RegExp][]) {
      const r = await cli(["serve", ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    const d = await cli(["serve", "--data", "/nonexistent-folder"]);
    expect(d.code).toBe(1);
    expect(d.stderr.trim()).toBe("pddl2prm: error: /nonexistent-folder: no such folder");
  });
});
