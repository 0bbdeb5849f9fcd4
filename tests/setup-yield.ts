import { afterEach } from "vitest";

// A turn of the event loop after every test: vitest's worker answers its runner over an RPC with
// a 60 s timeout, and files of synchronous tests (tests/reasoning: 70 s of brute force, test
// after test) never let the answer in, so the call timed out ('Timeout calling onTaskUpdate')
// and the run exited 1 with every test passing.
afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
