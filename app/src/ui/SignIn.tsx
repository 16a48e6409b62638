import { useState } from "preact/hooks";
import { API_KEY_HEADER, ApiProblem, api, describeError, unwrap } from "../lib/api";
import { Field } from "./fields";
import { PageHeading } from "./PageHeading";

const isLocal = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);

/**
 * Sign in with an API key: the key is tried on GET /v1/api/me (its name and role, no D1 read) and
 * kept for this tab only (lib/session.ts) when the service knows it.
 */
export function SignIn({
  onSignedIn,
  notice,
}: {
  onSignedIn: (key: string) => void;
  notice: string | null;
}) {
  const [key, setKey] = useState("");
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const submit = async (e: Event) => {
    e.preventDefault();
    const typed = key.trim();
    if (!typed) return setState({ busy: false, error: "Type an API key." });
    setState({ busy: true, error: null });
    try {
      await unwrap(api.GET("/v1/api/me", { headers: { [API_KEY_HEADER]: typed } }));
      onSignedIn(typed);
    } catch (error) {
      const refused = error instanceof ApiProblem && error.status === 401;
      setState({
        busy: false,
        error: refused ? "The service does not know this key." : describeError(error),
      });
    }
  };
  return (
    <main id="main" class="sign-in">
      <PageHeading title="Sign in">
        The back office of the pricing service. Your API key is kept in this tab only, until you
        sign out or close it.
      </PageHeading>
      {notice ? <p class="notice">{notice}</p> : null}
      <form class="panel" onSubmit={submit}>
        <Field
          id="api-key"
          label="API key"
          hint={isLocal ? "Local development: npm run dev prints the dev keys." : undefined}
        >
          <input
            id="api-key"
            type="password"
            autocomplete="off"
            spellcheck={false}
            value={key}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={`api-key-error${isLocal ? " api-key-hint" : ""}`}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        </Field>
        <p id="api-key-error" class="error" role="alert">
          {state.error ?? ""}
        </p>
        <button type="submit" disabled={state.busy}>
          {state.busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
