import { useEffect, useState } from "preact/hooks";

/** A form of the Changes page: a mass adjustment or pasted price rows. */
export type NewChangeKind = "adjust" | "rows";

/** The pages, addressed by the URL's hash so the static page needs no server routes. */
export type Route =
  | { page: "explorer" }
  | { page: "simulation" }
  | { page: "changes" }
  | { page: "change"; id: number }
  | { page: "new-change"; kind: NewChangeKind }
  | { page: "lint" }
  | { page: "record"; kind: string; key: string }
  | { page: "quotes" }
  | { page: "quote"; id: number }
  | { page: "new-quote" };

/** `#/changes`, `#/changes/7`, `#/changes/new/adjust`, `#/changes/new/rows`. */
function changesRoute(rest: string[]): Route {
  const [first, second] = rest;
  if (first === "new" && (second === "adjust" || second === "rows")) {
    return { page: "new-change", kind: second };
  }
  if (first !== undefined && /^[1-9][0-9]{0,14}$/.test(first)) {
    return { page: "change", id: Number(first) };
  }
  return { page: "changes" };
}

/** `#/quotes`, `#/quotes/7`, `#/quotes/new`. */
function quotesRoute(rest: string[]): Route {
  const [first] = rest;
  if (first === "new") return { page: "new-quote" };
  if (first !== undefined && /^[1-9][0-9]{0,14}$/.test(first)) {
    return { page: "quote", id: Number(first) };
  }
  return { page: "quotes" };
}

export function parseRoute(hash: string): Route {
  const [page, ...rest] = hash.replace(/^#\/?/, "").split("/");
  if (page === "simulation" || page === "lint") return { page };
  if (page === "changes") return changesRoute(rest);
  if (page === "quotes") return quotesRoute(rest);
  if (page === "record" && rest.length === 2) {
    return { page, kind: rest[0]!, key: decodeURIComponent(rest[1]!) };
  }
  return { page: "explorer" };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case "record":
      return `#/record/${route.kind}/${encodeURIComponent(route.key)}`;
    case "change":
      return `#/changes/${route.id}`;
    case "new-change":
      return `#/changes/new/${route.kind}`;
    case "quote":
      return `#/quotes/${route.id}`;
    case "new-quote":
      return "#/quotes/new";
    default:
      return `#/${route.page}`;
  }
}

/** Opens `route` (a new entry in the history, as a link would). */
export const go = (route: Route) => {
  location.hash = hrefOf(route);
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  return route;
}
