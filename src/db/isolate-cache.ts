/**
 * A cache that lives as long as the Worker isolate (module state: every request the isolate serves
 * sees it, no other isolate does). Bounded twice: at most `maxEntries` entries, and at most
 * `maxWeight` in the sum of the entries' weights (the caller says what a weight counts: rows,
 * bytes). The least recently used entries go first when either bound is passed; an entry heavier
 * than `maxEntryWeight` is not kept at all, so one huge value cannot empty the cache for the
 * others.
 *
 * Workers run one request at a time per isolate between awaits, and every method here is
 * synchronous: two requests that load the same key at once both `set` it, the later one wins,
 * and the cache's bookkeeping (the order, the total weight) is never left half-updated.
 */
export interface CacheBounds {
  maxEntries: number;
  maxWeight: number;
  maxEntryWeight: number;
}

interface Slot<V> {
  value: V;
  weight: number;
}

export class IsolateCache<V> {
  /** A Map iterates in insertion order: re-inserting on every hit keeps the oldest use first. */
  private readonly slots = new Map<string, Slot<V>>();
  private weight = 0;

  constructor(readonly bounds: CacheBounds) {}

  get size() {
    return this.slots.size;
  }

  /** The sum of the weights of the entries held. */
  get totalWeight() {
    return this.weight;
  }

  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Keeps `value` under `key` (replacing what was there); false when it is too heavy to keep. */
  set(key: string, value: V, weight: number): boolean {
    this.delete(key);
    if (weight > this.bounds.maxEntryWeight || weight > this.bounds.maxWeight) return false;
    this.slots.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, slot] of this.slots) {
      if (this.slots.size <= this.bounds.maxEntries && this.weight <= this.bounds.maxWeight) break;
      this.slots.delete(oldest);
      this.weight -= slot.weight;
    }
    return true;
  }

  delete(key: string) {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    this.weight -= slot.weight;
  }

  clear() {
    this.slots.clear();
    this.weight = 0;
  }
}
