/**
 * Read your own writes (docs/app.md §3): every answer of the API carries the D1 session
 * bookmark `x-d1-bookmark` (docs/api/access.md §10); the page keeps the newest it has seen and
 * sends it on every call, so D1 serves the call from a copy at least as new as the page's last
 * write, never from a replica that has not seen it yet.
 */

/** The header, both ways (src/http/context.ts BOOKMARK_HEADER). */
export const BOOKMARK_HEADER = "x-d1-bookmark";

/** Where the tab keeps the bookmark between calls (sessionStorage: this tab, until it closes). */
export interface BookmarkStore {
  read(): string | null;
  write(bookmark: string): void;
}

/**
 * Whether `candidate` is newer than `held`. D1 bookmarks are dash-separated fixed-width hex
 * groups, ordered as text: D1's own session keeps the greater of two (workerd's
 * `D1DatabaseSession._updateBookmark`), and so does the page, so an older answer that arrives
 * late (a slow read that started before a write) never takes the place of the write's.
 */
export const isNewer = (candidate: string, held: string | null) =>
  held === null || held < candidate;

/** The openapi-fetch middleware that sends the held bookmark and keeps the newest answered. */
export function bookmarkCarrier(store: BookmarkStore) {
  return {
    onRequest({ request }: { request: Request }) {
      const held = store.read();
      if (held && !request.headers.has(BOOKMARK_HEADER)) request.headers.set(BOOKMARK_HEADER, held);
      return request;
    },
    onResponse({ response }: { response: Response }) {
      const answered = response.headers.get(BOOKMARK_HEADER)?.trim();
      if (answered && isNewer(answered, store.read())) store.write(answered);
      return response;
    },
  };
}
