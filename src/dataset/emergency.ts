/**
 * What a run undoes when the process must end at once (a second Ctrl-C): synchronous steps
 * registered while the run writes, run by the CLI just before it exits, so that even a forced
 * stop leaves no temporary shard, lock or half-made folder behind.
 */
const steps = new Set<() => void>();

/** Register `undo` until the returned function is called (the run ended on its own). */
export function onForcedExit(undo: () => void): () => void {
  steps.add(undo);
  return () => void steps.delete(undo);
}

/** Run every registered step, newest first, each best effort. */
export function runForcedExitSteps(): void {
  for (const undo of [...steps].reverse()) {
    try {
      undo();
    } catch {
      // best effort: the process is ending
    }
  }
  steps.clear();
}
