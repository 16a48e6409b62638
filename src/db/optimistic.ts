import { conflict } from "../core/errors";

/**
 * Optimistic updates. D1 has no transaction spanning the read that checks a change and the
 * batch that writes it, so two PATCHes of one record can both pass their checks against the same
 * stored state and then write one after the other (ARCHIVED overwritten, validFrom after
 * validTo). A guarded write therefore applies only while the record still has the updatedAt it
 * read, and every update moves updatedAt forward, which makes it a version number.
 */

/** What a guarded write returns when another request changed (or removed) the record first. */
export const CHANGED = Symbol("changed");

const ATTEMPTS = 8;

/**
 * A patch whose every field already has its value changes nothing: answering the stored record
 * without a write keeps identical concurrent PATCHes (the same status, say) from contending, and
 * leaves no audit entry. Lists (codes, scale rows) are compared as sets; the stored record may
 * hold them as the JSON text its select builds.
 */
export const changesNothing = (current: object, patch: object) =>
  Object.entries(patch).every(
    ([key, value]) => value === undefined || same((current as Record<string, unknown>)[key], value),
  );

function same(stored: unknown, given: unknown): boolean {
  if (!Array.isArray(given)) return stored === given;
  const list = typeof stored === "string" ? (JSON.parse(stored) as unknown) : stored;
  return Array.isArray(list) && canonicalSet(list) === canonicalSet(given);
}

/** A list as text that ignores order, also of the keys of its objects. */
const canonicalSet = (list: unknown[]) =>
  JSON.stringify(list.map((item) => JSON.stringify(sortedKeys(item))).sort());

const sortedKeys = (item: unknown): unknown =>
  item && typeof item === "object" && !Array.isArray(item)
    ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
    : item;

/** The fields a PATCH body sets: absent (undefined) ones are no part of the change. */
export const patchOf = <T extends object>(input: T): T =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as T;

/** The updatedAt a write stores: now, but always after the one it replaces. */
export const nextUpdatedAt = (previous: number) => Math.max(Date.now(), previous + 1);

/** Runs read-check-write again on the fresh record while a concurrent write got in first. */
export async function optimistically<T>(
  entity: string,
  attempt: () => Promise<T | typeof CHANGED>,
): Promise<T> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== CHANGED) return result;
  }
  throw conflict(`${entity} kept changing under concurrent updates; retry`, "CONCURRENT_UPDATE");
}
