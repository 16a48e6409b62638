/**
 * This isolate's own long D1 work in flight: a change request's submit, approve or cancel, and a
 * simulation's reads (docs/api/prices.md §9.2). D1 answers one query at a time, so a price
 * lookup's freshness check sent meanwhile waits behind that work; while any is in flight, the
 * reader bounds the check by D1_BUSY_STALL_MS rather than D1_STALL_MS (reader.ts `throughStall`).
 */
let inFlight = 0;

/** Runs `work`, counted as long D1 work of this isolate until it settles. */
export async function holdingD1<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
  }
}

/** Whether this isolate has long D1 work of its own in flight. */
export const holdsD1 = () => inFlight > 0;
