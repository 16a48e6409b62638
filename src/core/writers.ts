/*
 * Four eyes on change requests and quotes (docs/api/change-requests.md §17.2, docs/quotes.md §3.2):
 * their writers are the owners of the keys that wrote their content, stored as a JSON array in the
 * order they first wrote, and no key of any of them may approve (a rotated key is still its
 * owner's).
 */

/** The writers as stored. */
export const writersOf = (stored: string) => JSON.parse(stored) as string[];

/** Whether `owner` is a writer: the one judgement, for the 403 SELF_APPROVAL and for answers. */
export const wroteIt = (stored: string, owner: string) => writersOf(stored).includes(owner);

/** The writers once `owner` wrote: added at the end the first time, else as they were. */
export const withWriter = (stored: string, owner: string) =>
  JSON.stringify([...new Set([...writersOf(stored), owner])]);

/** `writers` and `writtenByCaller` of an answer to a key of `owner`. */
export const writerFields = (stored: string, owner: string) => ({
  writers: writersOf(stored),
  writtenByCaller: wroteIt(stored, owner),
});
