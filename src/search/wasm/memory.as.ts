// Linear-memory helpers shared by the kernels (AssemblyScript).

/** The kernels' "unreachable" value; sums of costs stay below it in i32. */
export const INF: i32 = 0x3fffffff;

/** Element i of the i32 array at p. */
@inline export function ld(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}

/** Set element i of the i32 array at p. */
@inline export function st(p: usize, i: i32, v: i32): void {
  store<i32>(p + (<usize>i << 2), v);
}
