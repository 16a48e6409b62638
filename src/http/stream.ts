import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { nextTurn } from "../core/steps";

/**
 * A JSON answer written piece by piece as the client reads it, instead of one string made at
 * once: the text of a large answer (a simulation's 10,000 rows are some 17 MB) is never held
 * whole, and the isolate's other requests run between two pieces. `pieces` must join to the
 * JSON of a `T` (the caller's `c.json(value)` would have sent the same bytes). `done` runs once,
 * when the last piece is out or the client went away, whichever comes first.
 */
export function streamJson<T, S extends ContentfulStatusCode>(
  c: Context,
  pieces: Iterator<string>,
  status: S,
  done: () => void,
) {
  const encoder = new TextEncoder();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    done();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A turn of the event loop before each piece: the runtime may ask for the next one at
      // once, and other requests must run between two.
      await nextTurn();
      try {
        const next = pieces.next();
        if (next.done) {
          controller.close();
          end();
        } else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        end();
        throw error;
      }
    },
    cancel: end,
  });
  const response = c.body(body, status, { "content-type": "application/json" });
  // The bytes are c.json's for a T, so the route's typed JSON answer is what this is.
  return response as unknown as Response & TypedResponse<JSONParsed<T>, S, "json">;
}
