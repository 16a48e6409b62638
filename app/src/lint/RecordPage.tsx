import { useLoad } from "../lib/hooks";
import { LoadNote } from "../ui/fields";
import { KIND_NAME } from "../ui/RecordLink";
import { PageHeading } from "../ui/PageHeading";
import { RECORD_SOURCES, apiPathOf, isRecordKind, uiLinkOf } from "./records";

/**
 * One record a finding or a price step names, as the API answers it: the API's URL needs the key
 * in a header, which a plain link cannot send, so the page reads it with the tab's key and shows
 * the JSON, with its URL and the operation on /ui.
 */
export function RecordPage({ kind, recordKey }: { kind: string; recordKey: string }) {
  const known = isRecordKind(kind);
  const record = useLoad(
    (signal) =>
      known
        ? RECORD_SOURCES[kind].load(recordKey, signal)
        : Promise.reject(new Error(`unknown record kind ${kind}`)),
    [kind, recordKey],
  );
  const title = known ? `${KIND_NAME[kind]} ${recordKey}` : "Unknown record";
  return (
    <>
      <PageHeading title={title[0]!.toUpperCase() + title.slice(1)} />
      {known ? (
        <p>
          API: <code>GET {apiPathOf(kind, recordKey)}</code> ·{" "}
          <a href={uiLinkOf(kind)}>this operation on the API reference</a>
        </p>
      ) : null}
      <LoadNote loaded={record} loading="Loading…" />
      {record.state === "ready" ? (
        <pre class="json" tabIndex={0} aria-label={`The ${title} as JSON`}>
          {JSON.stringify(record.value, null, 2)}
        </pre>
      ) : null}
      <button type="button" class="secondary" onClick={() => history.back()}>
        Back
      </button>
    </>
  );
}
