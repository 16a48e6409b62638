import type { components } from "../../../client/pricing-api";

// No import of the page's modules that pull the DOM in: test/app/app-lint.test.ts runs this file.
export type Me = components["schemas"]["Me"];
export type Role = Me["role"];

/** The sections of the navigation: a change request and its forms are under Changes. */
export type Section = "explorer" | "simulation" | "changes" | "lint" | "quotes";

export const sectionOf = (route: { page: string }): Section | null =>
  route.page === "change" || route.page === "new-change"
    ? "changes"
    : route.page === "quote" || route.page === "new-quote"
      ? "quotes"
      : route.page === "record"
        ? null
        : (route.page as Section);

/**
 * Why a page needs an admin key (docs/api/access.md §6: the API answers a read key 403 there), said
 * on the page instead of a form that would be refused once filled in.
 */
export const ADMIN_ONLY: Partial<Record<Section, string>> = {
  simulation:
    "A simulation prices every customer of a channel with records that are not active yet, with " +
    "cost and margin: it shows every customer's terms, so the API answers it to admin keys only.",
  changes:
    "Change requests write prices (after a second admin key approves them) and their impact " +
    "shows cost and margin: the API answers them to admin keys only, reads included.",
  lint:
    "The pricing lint describes every customer's terms (and prices below cost): the API " +
    "answers it to admin keys only.",
};

export const PAGES: readonly { section: Section; route: { page: Section }; label: string }[] = [
  { section: "explorer", route: { page: "explorer" }, label: "Price explorer" },
  { section: "simulation", route: { page: "simulation" }, label: "Simulation" },
  { section: "changes", route: { page: "changes" }, label: "Changes" },
  { section: "lint", route: { page: "lint" }, label: "Lint" },
  // Every key: a read key sees the list and the quotes (no margin, no writes), a sales key writes
  // them (no cost), an admin key everything (docs/app.md §13).
  { section: "quotes", route: { page: "quotes" }, label: "Quotes" },
];

/** Whether a key of `role` may use `section`: a read or sales key only what the API answers it. */
export const mayUse = (role: Role, section: Section | null) =>
  role === "admin" || section === null || ADMIN_ONLY[section] === undefined;

/** The navigation for `role`: the pages it may use, and those it may not (to say why). */
export function pagesFor(role: Role) {
  return {
    shown: PAGES.filter((p) => mayUse(role, p.section)),
    hidden: PAGES.filter((p) => !mayUse(role, p.section)),
  };
}
