import { useState } from "preact/hooks";
import { RecordLink } from "../ui/RecordLink";
import type { Finding, FindingGroup } from "./groups";

/** Findings a group lists before "Show all". */
const FIRST = 20;
/** A group of more findings than this starts folded. */
const OPEN_UP_TO = 10;

function FindingsTable({ findings, caption }: { findings: Finding[]; caption: string }) {
  return (
    <table class="findings">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Message</th>
          <th scope="col">Records</th>
        </tr>
      </thead>
      <tbody>
        {findings.map((f, i) => (
          <tr key={i} data-code={f.code}>
            <td>{f.message}</td>
            <td>
              <ul class="records">
                {f.records.map((r) => (
                  <li key={`${r.kind}:${r.id ?? r.code}`}>
                    <RecordLink kind={r.kind} id={(r.id ?? r.code)!} />
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One group: code, severity, pricelist and count in its summary; its findings (the first 20,
 * then all on demand) folded away when there are more than 10.
 */
export function GroupCard(props: { group: FindingGroup; pricelistName?: string }) {
  const { group, pricelistName } = props;
  const [all, setAll] = useState(false);
  const count = group.findings.length;
  const shown = all ? group.findings : group.findings.slice(0, FIRST);
  const where =
    group.pricelistId === null
      ? "no pricelist"
      : `pricelist ${group.pricelistId}${pricelistName ? ` · ${pricelistName}` : ""}`;
  return (
    <details
      class="lint-group"
      open={count <= OPEN_UP_TO}
      data-code={group.code}
      data-pricelist={group.pricelistId ?? ""}
    >
      <summary>
        <span class={`badge severity-${group.severity}`}>{group.severity}</span>{" "}
        <code>{group.code}</code> · {where} ·{" "}
        <span class="count" data-count={count}>
          {count} {count === 1 ? "finding" : "findings"}
        </span>
      </summary>
      <FindingsTable findings={shown} caption={`${group.code} in ${where}`} />
      {count > shown.length ? (
        <button type="button" class="secondary" onClick={() => setAll(true)}>
          Show all {count}
        </button>
      ) : null}
    </details>
  );
}
