import { useEffect, useState } from "preact/hooks";
import { ChangeList } from "../changes/ChangeList";
import { ChangeRequestPage } from "../changes/ChangeRequestPage";
import { NewChange } from "../changes/NewChange";
import { Explorer } from "../explorer/Explorer";
import { Lint } from "../lint/Lint";
import { RecordPage } from "../lint/RecordPage";
import { UNAUTHORIZED_EVENT } from "../lib/api";
import { type Route, hrefOf, useRoute } from "../lib/route";
import { forgetKey, readKey, storeKey } from "../lib/session";
import { Simulation } from "../simulation/Simulation";
import { SignIn } from "./SignIn";

const PAGES = [
  { route: { page: "explorer" }, label: "Price explorer" },
  { route: { page: "simulation" }, label: "Simulation" },
  { route: { page: "changes" }, label: "Changes" },
  { route: { page: "lint" }, label: "Lint" },
] as const satisfies readonly { route: Route; label: string }[];

/** The navigation entry a page belongs to: a change request and its forms are under Changes. */
const sectionOf = (route: Route): Route["page"] =>
  route.page === "change" || route.page === "new-change" ? "changes" : route.page;

function Nav({ route, onSignOut }: { route: Route; onSignOut: () => void }) {
  return (
    <header class="top">
      <span class="brand">Edge Pricing · back office</span>
      <nav aria-label="Pages">
        <ul>
          {PAGES.map((p) => (
            <li key={p.route.page}>
              <a
                href={hrefOf(p.route)}
                aria-current={sectionOf(route) === p.route.page ? "page" : undefined}
              >
                {p.label}
              </a>
            </li>
          ))}
          <li>
            <a href="/ui">API reference</a>
          </li>
        </ul>
      </nav>
      <button type="button" class="secondary" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case "simulation":
      return <Simulation />;
    case "changes":
      return <ChangeList />;
    case "change":
      return <ChangeRequestPage key={route.id} id={route.id} />;
    case "new-change":
      return <NewChange kind={route.kind} />;
    case "lint":
      return <Lint />;
    case "record":
      return <RecordPage kind={route.kind} recordKey={route.key} />;
    default:
      return <Explorer />;
  }
}

/** Signed out: the sign-in form. Signed in: the navigation and the page of the hash. */
export function App() {
  const [key, setKey] = useState(readKey);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  useEffect(() => {
    const refused = () => {
      forgetKey();
      setKey(null);
      setNotice("The service no longer accepts this key: sign in again.");
    };
    window.addEventListener(UNAUTHORIZED_EVENT, refused);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, refused);
  }, []);
  if (!key) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(k) => {
          storeKey(k);
          setNotice(null);
          setKey(k);
        }}
      />
    );
  }
  const signOut = () => {
    forgetKey();
    setNotice("Signed out: the key is gone from this tab.");
    setKey(null);
  };
  return (
    <>
      <Nav route={route} onSignOut={signOut} />
      <main id="main">
        <Page route={route} />
      </main>
    </>
  );
}
