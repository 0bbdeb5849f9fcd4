/** Running `pddl2prm serve` (the built CLI) from tests: start, read its address, stop. */
import { spawn, type ChildProcess } from "node:child_process";
import { CLI } from "./cli-run.js";

export interface RunningServer {
  url: string;
  port: number;
  proc: ChildProcess;
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start the server with `args` (port 0 unless given); resolves once it prints its address. */
export function startServer(args: string[], timeoutMs = 60_000): Promise<RunningServer> {
  const full = args.includes("--port") ? args : [...args, "--port", "0"];
  const proc = spawn(process.execPath, [CLI, "serve", ...full], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  proc.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => proc.on("exit", (code, signal) => res({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`serve did not start in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    proc.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/[^\s]+):(\d+)/.exec(err);
      if (m !== null && timer !== null) {
        clearTimeout(timer);
        const url = `${m[1]}:${m[2]}`;
        resolve({
          url,
          port: Number(m[2]),
          proc,
          stderr: () => err,
          exited,
          stop: async () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${e.code ?? e.signal}) before listening: ${err}`));
    });
  });
}

/** Run a CLI command with `input` on stdin; its stdout lines. */
export function cliLines(args: string[], input: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (c: Buffer) => (out += c.toString()));
    p.stderr.on("data", (c: Buffer) => (err += c.toString()));
    p.on("exit", (code) => (code === 0 ? resolve(out.split("\n").filter((l) => l.length > 0)) : reject(new Error(`exit ${code}: ${err}`))));
    p.stdin.end(input);
  });
}

/** POST a body (a string, sent as is) and return status, headers and text. */
export async function post(url: string, body: string, headers: Record<string, string> = { "Content-Type": "application/json" }): Promise<{ status: number; text: string; headers: Headers }> {
  const r = await fetch(url, { method: "POST", body, headers });
  return { status: r.status, text: await r.text(), headers: r.headers };
}
