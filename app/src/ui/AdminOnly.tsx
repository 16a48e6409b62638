import { hrefOf } from "../lib/route";
import { PageHeading } from "./PageHeading";
import { ADMIN_ONLY, PAGES, type Role, type Section } from "./roles";

/** Under the navigation of a read or sales key: which pages are not there, and why. */
export function KeyNote(props: { role: Role; hidden: readonly { label: string }[] }) {
  const { role, hidden } = props;
  return (
    <p class="key-note" id="key-note">
      {role === "sales" ? (
        <>
          Signed in with a <strong>sales key</strong>: quotes are yours to write, submit, send and,
          where the quote policy names you, approve; no page shows cost (a quote shows its
          margin).{" "}
        </>
      ) : (
        <>
          Signed in with a <strong>read key</strong>: the price explorer shows prices as a
          storefront sees them (no cost or margin), and the quotes without margin or actions.{" "}
        </>
      )}
      {hidden.map((p) => p.label).join(", ")} need an admin key, and are not offered.
    </p>
  );
}

/** A page a read key may not use, opened by its address: why, instead of a form it cannot send. */
export function AdminOnly({ section }: { section: Section }) {
  const page = PAGES.find((p) => p.section === section)!;
  return (
    <>
      <PageHeading title={`${page.label}: admin keys only`}>{ADMIN_ONLY[section]}</PageHeading>
      <p>
        Sign out and sign in with an admin key to use it, or go back to the{" "}
        <a href={hrefOf({ page: "explorer" })}>price explorer</a>, which a read key may use.
      </p>
    </>
  );
}
