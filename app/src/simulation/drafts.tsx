import { api, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";

export interface DraftRecord {
  id: number;
  name: string;
  /** Validity, currency and the like, to tell drafts apart */
  detail: string;
}

export interface Drafts {
  pricelists: DraftRecord[];
  tradeConditions: DraftRecord[];
  promotions: DraftRecord[];
}

export type DraftKind = keyof Drafts;

const validity = (r: { validFrom: string | null; validTo: string | null }) =>
  `valid ${r.validFrom?.slice(0, 10) ?? "always"} – ${r.validTo?.slice(0, 10) ?? "open"}`;

const query = { limit: 100, sortBy: ["id:ASC" as const], "filter.status": ["DRAFT"] };

/** The DRAFT records a simulation can activate: the first 100 of each kind, by id. */
async function loadDrafts(signal: AbortSignal): Promise<Drafts> {
  const [pricelists, conditions, promotions] = await Promise.all([
    unwrap(api.GET("/v1/api/pricelist", { params: { query }, signal })),
    unwrap(api.GET("/v1/api/trade-conditions", { params: { query }, signal })),
    unwrap(api.GET("/v1/api/promotion", { params: { query }, signal })),
  ]);
  return {
    pricelists: pricelists.data.map((p) => ({
      id: p.id,
      name: p.name,
      detail: `${p.kind} ${p.scope}${p.customerCode ? ` of ${p.customerCode}` : ""}, ${p.currency}, ${validity(p)}`,
    })),
    tradeConditions: conditions.data.map((t) => ({
      id: t.id,
      name: t.name,
      detail: `${t.type} ${t.scope}, ${validity(t)}`,
    })),
    promotions: promotions.data.map((p) => ({
      id: p.id,
      name: p.name,
      detail: `${p.stacking}, ${validity(p)}`,
    })),
  };
}

export const useDrafts = () => useLoad(loadDrafts, []);

const TITLES: Record<DraftKind, string> = {
  pricelists: "DRAFT pricelists",
  tradeConditions: "DRAFT trade conditions",
  promotions: "DRAFT promotions",
};

/** Checkboxes of one kind of DRAFT record; the chosen ids are `chosen`. */
export function DraftChoices(props: {
  kind: DraftKind;
  records: DraftRecord[];
  chosen: number[];
  onChange: (ids: number[]) => void;
}) {
  const { kind, records, chosen } = props;
  const flip = (id: number, on: boolean) =>
    props.onChange(on ? [...chosen, id].sort((a, b) => a - b) : chosen.filter((x) => x !== id));
  return (
    <fieldset>
      <legend>{TITLES[kind]}</legend>
      {records.length === 0 ? <p class="muted">None.</p> : null}
      <div class="choices">
        {records.map((r) => (
          <label key={r.id} class="choice" for={`draft-${kind}-${r.id}`}>
            <input
              id={`draft-${kind}-${r.id}`}
              type="checkbox"
              checked={chosen.includes(r.id)}
              onChange={(e) => flip(r.id, e.currentTarget.checked)}
            />
            <span>
              {r.id} · {r.name} <small class="muted">({r.detail})</small>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
