/**
 * `pddl2prm serve`: an HTTP reward server (docs/rl.md, "The reward server"). A pool of worker
 * threads with warm reward/judge sessions (serve-pool.ts) behind node:http (serve-http.ts):
 * POST /reward and /judge take one `reward --jsonl` / `judge --jsonl` request and answer its
 * result line; /batch many in order; /get_reward is OpenRLHF's remote reward model; GET /health
 * and /metrics. Bounded everywhere: the queue (503 + Retry-After), bodies (413), slow clients
 * (--read-timeout-ms), each request's time (--time-ms, the worker replaced when it cannot stop
 * itself). SIGTERM/SIGINT: stop accepting, finish what is in flight, exit 0; a second signal
 * exits at once.
 */
import { createServer } from "node:http";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import type { Command } from "commander";
import { readTemplatesFile } from "../nl/index.js";
import { UserError } from "../pddl/index.js";
import { DEFAULT_OUTCOME_WEIGHT, type RewardOptions } from "../products/rl-reward.js";
import type { JudgeSessionOptions } from "../products/judge-session.js";
import { action, groundCapOptions, groundLimits, intFlag, UsageError, type GroundCapFlags } from "./common.js";
import { backstopMs } from "./judge-stream.js";
import { MAX_MEMORY_HELP, maxMemoryMb } from "./bounded.js";
import { ServeHttp } from "./serve-http.js";
import { ServeMetrics } from "./serve-metrics.js";
import { WorkerPool } from "./serve-pool.js";
import { ProblemIndex } from "./serve-labels.js";

interface ServeFlags extends GroundCapFlags {
  port: string;
  host: string;
  workers?: string;
  queue: string;
  timeMs: string;
  cache: string;
  templates?: string;
  maxBody: string;
  maxMemory?: string;
  maxStates?: string;
  readTimeoutMs: string;
  data?: string;
  seed: string;
  scale: boolean;
  outcomeWeight?: string;
}

const DEFAULT_MAX_BODY = 32 * 2 ** 20;

export function register(program: Command): void {
  const cmd = program
    .command("serve")
    .description("HTTP reward server: POST /reward, /batch, /get_reward (OpenRLHF), /judge; GET /health, /metrics (docs/rl.md)")
    .option("--port <n>", "port to listen on (0: any free port)", "8808")
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .option("--workers <n>", "worker threads, each with warm sessions (default: the number of cores)")
    .option("--queue <n>", "request lines that may wait for a worker; past it, 503 with Retry-After", "1024")
    .option("--time-ms <n>", "wall-clock limit per request line in ms, from its arrival (queue, parsing and judging included)", "30000")
    .option("--cache <n>", "ground tasks each worker keeps warm with their h* caches", "64")
    .option("--templates <file>", "nl.json for step text of a domain that is not built-in")
    .option("--max-body <bytes>", "largest request body; past it, 413", String(DEFAULT_MAX_BODY))
    .option("--max-memory <mb>", `${MAX_MEMORY_HELP}; per worker: a request over it is answered with a limit and the worker replaced`)
    .option("--max-states <n>", "state cap of the h* oracle's explicit mode and of label searches (as in `judge`)")
    .option("--read-timeout-ms <n>", "time a client has to send a whole request; past it, 408 and the connection closes", "30000")
    .option("--data <dir>", "an rl dataset folder (generate --format rl): /get_reward labels may name its problems by pddl_sha256 or row id")
    .option("--seed <s>", "seed of the critiques' wording", "0")
    .option("--no-scale", "outcome 1 for any valid plan (default: optimal_cost / cost); a request's scale_by_cost wins")
    .option("--outcome-weight <w>", `weight of the outcome in reward (default ${DEFAULT_OUTCOME_WEIGHT}); a request's outcome_weight wins`)
    .addHelpText("after", "\nPrints 'pddl2prm serve: listening on http://HOST:PORT' on stderr once the workers are ready. Endpoints and recipes: docs/rl.md.");
  groundCapOptions(cmd).action(action(async (flags: ServeFlags) => serve(flags)));
}

async function serve(flags: ServeFlags): Promise<void> {
  const port = intFlag("--port", flags.port, 0, 65535)!;
  const workers = intFlag("--workers", flags.workers, 1, 1024) ?? availableParallelism();
  const queue = intFlag("--queue", flags.queue, 1)!;
  const timeMs = intFlag("--time-ms", flags.timeMs, 1)!;
  const cache = intFlag("--cache", flags.cache, 1)!;
  const maxBody = intFlag("--max-body", flags.maxBody, 1024)!;
  const readTimeoutMs = intFlag("--read-timeout-ms", flags.readTimeoutMs, 100)!;
  const maxStates = intFlag("--max-states", flags.maxStates, 1);
  const seed = intFlag("--seed", flags.seed, 0)!;
  const memoryMb = maxMemoryMb(flags.maxMemory);
  const host = flags.host.trim();
  if (host.length === 0) throw new UsageError("--host is empty");
  let outcomeWeight: number | undefined;
  if (flags.outcomeWeight !== undefined) {
    outcomeWeight = Number(flags.outcomeWeight);
    if (!Number.isFinite(outcomeWeight) || outcomeWeight < 0 || outcomeWeight > 1) throw new UsageError(`--outcome-weight must be a number in [0, 1], got '${flags.outcomeWeight}'`);
  }
  if (flags.templates !== undefined) readTemplatesFile(flags.templates);
  const index = flags.data !== undefined ? await ProblemIndex.load(flags.data) : null;
  // the options of `reward --jsonl` and `judge --jsonl`, so that answers are theirs byte for byte
  const session: JudgeSessionOptions = {
    ...(flags.templates !== undefined ? { templatesFile: flags.templates } : {}),
    ...(maxStates !== undefined ? { maxStates } : {}),
    timeMs,
    cacheSize: cache,
    seed,
    groundCaps: groundLimits(flags),
  };
  const reward: RewardOptions = { scaleByCost: flags.scale, ...(outcomeWeight !== undefined ? { outcomeWeight } : {}) };
  const metrics = new ServeMetrics();
  const pool = new WorkerPool({ workers, queue, timeMs, memoryMb, session, reward, metrics });
  const require = createRequire(import.meta.url);
  const version = (require("../../../package.json") as { version: string }).version;
  const http = new ServeHttp({ pool, metrics, maxBody, queue, workers, timeMs, index, version });
  const server = createServer({ requestTimeout: readTimeoutMs, headersTimeout: Math.min(readTimeoutMs, 10_000), connectionsCheckingInterval: Math.min(1000, readTimeoutMs), keepAliveTimeout: 5000 }, (req, res) =>
    http.handle(req, res),
  );
  // a connection silent this long (a client that stopped reading its answers) is closed; a
  // request waits for its answer at most its limit and the backstop
  server.setTimeout(backstopMs(timeMs) + readTimeoutMs + 10_000);
  server.on("clientError", (e: NodeJS.ErrnoException, socket) => {
    // a request not sent in time (408), or a malformed request line or headers (400)
    const status = e.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : "400 Bad Request";
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (e.code === "EADDRINUSE") reject(new UserError(`cannot listen on ${where}: the address is in use (another --port?)`));
      else if (e.code === "EACCES") reject(new UserError(`cannot listen on ${where}: permission denied (a port below 1024?)`));
      else if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") reject(new UserError(`cannot listen on ${where}: no such local address (--host)`));
      else reject(new UserError(`cannot listen on ${where}: ${e.message}`));
    });
    server.listen(port, host, () => resolve());
  });
  try {
    await pool.start();
  } catch (e) {
    server.close();
    await pool.stop();
    throw e;
  }
  const addr = server.address();
  const bound = addr !== null && typeof addr === "object" ? addr : { address: host, port };
  const shown = bound.address.includes(":") ? `[${bound.address}]` : bound.address;
  process.stderr.write(`pddl2prm serve: listening on http://${shown}:${bound.port} (${workers} workers, queue ${queue}, ${timeMs} ms per request)\n`);

  await new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (++signals > 1) {
        process.stderr.write(`pddl2prm serve: ${signal} again: exiting now\n`);
        process.exit(signal === "SIGINT" ? 130 : 143);
      }
      process.stderr.write(`pddl2prm serve: ${signal}: finishing ${metrics.inFlight} requests in flight, then exiting\n`);
      http.draining = true;
      server.close();
      server.closeIdleConnections();
      void http.idle().then(async () => {
        server.closeAllConnections();
        await pool.stop();
        process.off("SIGTERM", onSignal);
        process.off("SIGINT", onSignal);
        process.stderr.write("pddl2prm serve: stopped\n");
        resolve();
      });
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}
