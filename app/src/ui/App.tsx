import { useEffect, useState } from "preact/hooks";
import { ChangeList } from "../changes/ChangeList";
import { ChangeRequestPage } from "../changes/ChangeRequestPage";
import { NewChange } from "../changes/NewChange";
import { Explorer } from "../explorer/Explorer";
import { Lint } from "../lint/Lint";
import { RecordPage } from "../lint/RecordPage";
import { UNAUTHORIZED_EVENT, api, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { type Route, hrefOf, useRoute } from "../lib/route";
import { forgetKey, readKey, storeKey } from "../lib/session";
import { NewQuote } from "../quotes/NewQuote";
import { QuoteList } from "../quotes/QuoteList";
import { QuotePage } from "../quotes/QuotePage";
import { Simulation } from "../simulation/Simulation";
import { AdminOnly, KeyNote } from "./AdminOnly";
import { type Me, mayUse, pagesFor, sectionOf } from "./roles";
import { SignIn } from "./SignIn";

function Nav(props: { route: Route; me: Me | null; onSignOut: () => void }) {
  const { route, me, onSignOut } = props;
  // Until the key's role is known (or when it could not be read) every page is offered: the API
  // still refuses what the key may not do.
  const { shown, hidden } = pagesFor(me?.role ?? "admin");
  return (
    <>
      <header class="top">
        <span class="brand">Edge Pricing · back office</span>
        <nav aria-label="Pages">
          <ul>
            {shown.map((p) => (
              <li key={p.section}>
                <a
                  href={hrefOf(p.route)}
                  aria-current={sectionOf(route) === p.section ? "page" : undefined}
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
        {me ? (
          <span class="key-name" data-role={me.role}>
            {me.name} · {me.role} key
          </span>
        ) : null}
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      {me && hidden.length ? <KeyNote role={me.role} hidden={hidden} /> : null}
    </>
  );
}

function Page({ route, me }: { route: Route; me: Me | null }) {
  switch (route.page) {
    case "quotes":
      return <QuoteList me={me} />;
    case "quote":
      return <QuotePage key={route.id} id={route.id} me={me} />;
    case "new-quote":
      return <NewQuote me={me} />;
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

/** The signed-in page: the navigation for the key's role (GET /v1/api/me) and the page. */
function SignedIn({ keyValue, onSignOut }: { keyValue: string; onSignOut: () => void }) {
  const route = useRoute();
  const me = useLoad((signal) => unwrap(api.GET("/v1/api/me", { signal })), [keyValue]);
  const known = me.state === "ready" ? me.value : null;
  const section = sectionOf(route);
  return (
    <>
      <Nav route={route} me={known} onSignOut={onSignOut} />
      <main id="main">
        {me.state === "loading" ? (
          <p role="status">Reading the key's role…</p>
        ) : known && !mayUse(known.role, section) && section ? (
          <AdminOnly section={section} />
        ) : (
          <Page route={route} me={known} />
        )}
      </main>
    </>
  );
}

/** Signed out: the sign-in form. Signed in: the navigation and the page of the hash. */
export function App() {
  const [key, setKey] = useState(readKey);
  const [notice, setNotice] = useState<string | null>(null);
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
  return <SignedIn key={key} keyValue={key} onSignOut={signOut} />;
}
