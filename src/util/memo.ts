/**
 * `make(key)` computed once per key object and kept as long as the key lives (a WeakMap): for
 * what is built once per ground task (successor generator, mutex groups).
 */
export function weakMemo<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = make(key)));
    return v;
  };
}
