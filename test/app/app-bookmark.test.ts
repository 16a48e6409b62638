import { exports } from "cloudflare:workers";
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { paths } from "../../client/pricing-api";
import {
  BOOKMARK_HEADER,
  bookmarkCarrier,
  isNewer,
  type BookmarkStore,
} from "../../app/src/lib/bookmark";
import { KEYS, uid } from "../shared/helpers";

/**
 * The back office reads its own writes (docs/app.md §3): its typed client sends the newest
 * `x-d1-bookmark` it has been answered (docs/api/access.md §10) on every call. Driven here through
 * the same openapi-fetch client and middleware as app/src/lib/api.ts, against the real Worker; the
 * tab's sessionStorage is a variable.
 */

function memoryStore(): BookmarkStore & { held: string | null } {
  return {
    held: null,
    read() {
      return this.held;
    },
    write(bookmark) {
      this.held = bookmark;
    },
  };
}

/** A client as the page's, whose every request's bookmark header is recorded. */
function pageClient(store: BookmarkStore) {
  const sent: (string | null)[] = [];
  const client = createClient<paths>({
    baseUrl: "http://pricing.test",
    fetch: (request: Request) => {
      sent.push(request.headers.get(BOOKMARK_HEADER));
      return exports.default.fetch(request);
    },
  });
  client.use({
    onRequest: ({ request }) => {
      request.headers.set("x-webhook-signature", KEYS.admin);
      return request;
    },
  });
  client.use(bookmarkCarrier(store));
  return { client, sent };
}

describe("the back office's D1 bookmark", () => {
  it("sends none before the first answer, then the write's bookmark with the next call", async () => {
    const store = memoryStore();
    const { client, sent } = pageClient(store);
    const code = uid("BM");
    const write = await client.POST("/v1/api/product", { body: { code, name: "Bookmarked" } });
    expect(write.response.status).toBe(201);
    const mark = write.response.headers.get(BOOKMARK_HEADER);
    expect(mark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
    expect(sent).toEqual([null]);
    expect(store.held).toBe(mark);

    const read = await client.GET("/v1/api/product/{code}", { params: { path: { code } } });
    expect(read.data?.name).toBe("Bookmarked");
    expect(sent[1]).toBe(mark);
    // The read ran in the write's session: its bookmark is at least the write's.
    expect(read.response.headers.get(BOOKMARK_HEADER)! >= mark!).toBe(true);

    const update = await client.PATCH("/v1/api/product/{code}", {
      params: { path: { code } },
      body: { name: "Renamed" },
    });
    expect(update.response.status).toBe(200);
    // Sent the read's bookmark (the newest), and answered with the update's.
    expect(sent[2]).toBe(read.response.headers.get(BOOKMARK_HEADER));
    const after = await client.GET("/v1/api/product/{code}", { params: { path: { code } } });
    expect(sent[3]).toBe(update.response.headers.get(BOOKMARK_HEADER));
    expect(after.data?.name).toBe("Renamed");
  });

  it("keeps the newest bookmark: an older answer arriving late never replaces it", async () => {
    const store = memoryStore();
    const carrier = bookmarkCarrier(store);
    const answer = (bookmark: string) =>
      carrier.onResponse({
        response: new Response(null, { headers: { [BOOKMARK_HEADER]: bookmark } }),
      });
    const older = "00000000-0000000a-00000000-0123456789abcdef0123456789abcdef";
    const newer = "00000000-0000000b-00000000-0123456789abcdef0123456789abcdef";
    answer(newer);
    answer(older);
    expect(store.held).toBe(newer);
    // An answer without the header (a page asset, a network error page) leaves it as it is.
    carrier.onResponse({ response: new Response(null) });
    expect(store.held).toBe(newer);
    expect(isNewer(newer, older)).toBe(true);
    expect(isNewer(older, newer)).toBe(false);
    expect(isNewer(older, null)).toBe(true);
    // A call that names its own bookmark keeps it.
    const own = new Request("http://pricing.test/x", { headers: { [BOOKMARK_HEADER]: older } });
    expect(carrier.onRequest({ request: own }).headers.get(BOOKMARK_HEADER)).toBe(older);
  });
});
