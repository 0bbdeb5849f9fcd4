/**
 * Sorts `xs` ascending in place and returns it. Arrays of a few numbers (preconditions, effects,
 * a state's applicable operators) are the common case on the labelling path: an insertion sort
 * there allocates nothing, where Array.prototype.sort copies the array into a work area per call
 * (a tenth of a labelling worker's allocations); arrays longer than `insertionMax` go to the
 * built-in sort.
 */
export function sortNumbers(xs: number[], insertionMax = 24): number[] {
  const n = xs.length;
  if (n > insertionMax) return xs.sort((a, b) => a - b);
  for (let i = 1; i < n; i++) {
    const v = xs[i]!;
    let j = i - 1;
    while (j >= 0 && xs[j]! > v) {
      xs[j + 1] = xs[j]!;
      j--;
    }
    xs[j + 1] = v;
  }
  return xs;
}

/**
 * Sorts `xs` in place ascending by `key[x]`, stably, and returns it: an insertion sort up to
 * `insertionMax` elements (no work area, unlike Array.prototype.sort), else the built-in sort.
 */
export function sortByKey(xs: number[], key: ArrayLike<number>, insertionMax = 24): number[] {
  const n = xs.length;
  if (n > insertionMax) return xs.sort((a, b) => key[a]! - key[b]!);
  for (let i = 1; i < n; i++) {
    const v = xs[i]!;
    const kv = key[v]!;
    let j = i - 1;
    while (j >= 0 && key[xs[j]!]! > kv) {
      xs[j + 1] = xs[j]!;
      j--;
    }
    xs[j + 1] = v;
  }
  return xs;
}
