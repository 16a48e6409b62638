/** Appends `value` to the list under `key`, creating it: the engine's and the linter's indexes. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
