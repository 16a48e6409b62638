import { useEffect, useState } from "preact/hooks";

/** The pages, addressed by the URL's hash so the static page needs no server routes. */
export type Route =
  | { page: "explorer" }
  | { page: "simulation" }
  | { page: "lint" }
  | { page: "record"; kind: string; key: string };

export function parseRoute(hash: string): Route {
  const [page, ...rest] = hash.replace(/^#\/?/, "").split("/");
  if (page === "simulation" || page === "lint") return { page };
  if (page === "record" && rest.length === 2) {
    return { page, kind: rest[0]!, key: decodeURIComponent(rest[1]!) };
  }
  return { page: "explorer" };
}

export const hrefOf = (route: Route): string =>
  route.page === "record"
    ? `#/record/${route.kind}/${encodeURIComponent(route.key)}`
    : `#/${route.page}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  return route;
}
