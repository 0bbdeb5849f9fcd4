import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

// Temporary folders that `npm test` removes again: a test run leaves nothing in the temp dir.

const make = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));
const remove = (dir: string) => (): void => rmSync(dir, { recursive: true, force: true });

/** A fresh folder for a whole test file (call at module level): removed after its last test. */
export function fileTempDir(prefix: string): string {
  const dir = make(prefix);
  afterAll(remove(dir));
  return dir;
}

/** A fresh folder for one test (call inside `it`): removed when the test finishes, pass or fail. */
export function testTempDir(prefix: string): string {
  const dir = make(prefix);
  onTestFinished(remove(dir));
  return dir;
}
