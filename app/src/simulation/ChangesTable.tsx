import { useMemo, useState } from "preact/hooks";
import type { Schemas } from "../lib/api";
import { formatBp, formatMoney } from "../lib/money";

type Row = Schemas["PriceChangeRow"];
type Direction = "ascending" | "descending";

interface Column {
  id: string;
  label: string;
  numeric: boolean;
  /** The sort key: text or an integer; null sorts last either way */
  key: (row: Row) => string | number | null;
}

const COLUMNS: Column[] = [
  { id: "customer", label: "Customer", numeric: false, key: (r) => r.customerCode },
  { id: "product", label: "Product", numeric: false, key: (r) => r.productCode },
  { id: "before", label: "Before", numeric: true, key: (r) => r.before.finalUnitAmount },
  { id: "after", label: "After", numeric: true, key: (r) => r.after.finalUnitAmount },
  { id: "difference", label: "Difference", numeric: true, key: (r) => r.difference },
  { id: "differenceBp", label: "Change", numeric: true, key: (r) => r.differenceBp },
  // The simulation is for admin keys: its lines carry cost, margin and pocket price (§26).
  { id: "cost", label: "Cost after", numeric: true, key: (r) => r.after.costUnitAmount ?? null },
  {
    id: "marginBefore",
    label: "Margin before",
    numeric: true,
    key: (r) => r.before.marginBp ?? null,
  },
  { id: "marginAfter", label: "Margin after", numeric: true, key: (r) => r.after.marginBp ?? null },
  {
    id: "pocket",
    label: "Pocket after",
    numeric: true,
    key: (r) => r.after.pocketUnitAmount ?? null,
  },
  { id: "changed", label: "What changed", numeric: false, key: (r) => r.changed.join(" ") },
];

function compare(a: string | number | null, b: string | number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return typeof a === "number" && typeof b === "number"
    ? a - b
    : String(a).localeCompare(String(b));
}

/** Rows sorted by a column; without one, in the API's order (largest change first). */
export function sortRows(rows: readonly Row[], column: string | null, direction: Direction): Row[] {
  const by = COLUMNS.find((c) => c.id === column);
  if (!by) return [...rows];
  const sign = direction === "ascending" ? 1 : -1;
  return [...rows].sort((x, y) => {
    const [a, b] = [by.key(x), by.key(y)];
    // Nulls stay last in both directions; the API's order breaks ties.
    if (a === null || b === null) return compare(a, b);
    return sign * compare(a, b);
  });
}

const PAGE = 200;

function SortHeader(props: {
  column: Column;
  sort: { column: string | null; direction: Direction };
  onSort: () => void;
}) {
  const { column, sort } = props;
  const active = sort.column === column.id;
  return (
    <th
      scope="col"
      class={column.numeric ? "num" : ""}
      aria-sort={active ? sort.direction : "none"}
    >
      <button type="button" class="sort" onClick={props.onSort}>
        {column.label}
        <span aria-hidden="true">
          {active ? (sort.direction === "ascending" ? " ▲" : " ▼") : " ↕"}
        </span>
      </button>
    </th>
  );
}

function ChangeRow({ row, currency }: { row: Row; currency: string }) {
  const tone =
    row.difference === null || row.difference === 0 ? "" : row.difference > 0 ? "rise" : "cut";
  return (
    <tr>
      <td>{row.customerCode ?? <em>anonymous</em>}</td>
      <td>{row.productCode}</td>
      <td class="num">{formatMoney(row.before.finalUnitAmount, currency)}</td>
      <td class="num">{formatMoney(row.after.finalUnitAmount, currency)}</td>
      <td class={`num ${tone}`}>{formatMoney(row.difference, currency, true)}</td>
      <td class={`num ${tone}`}>{formatBp(row.differenceBp, true)}</td>
      <td class="num" data-field="costUnitAmount">
        {formatMoney(row.after.costUnitAmount ?? null, currency)}
      </td>
      <td class="num" data-field="marginBefore">
        {formatBp(row.before.marginBp ?? null)}
      </td>
      <td class="num" data-field="marginAfter">
        {formatBp(row.after.marginBp ?? null)}
      </td>
      <td class="num" data-field="pocketUnitAmount">
        {formatMoney(row.after.pocketUnitAmount ?? null, currency)}
      </td>
      <td>{row.changed.join(", ")}</td>
    </tr>
  );
}

/** The changed prices, sortable by any column (the header buttons; aria-sort tells the order). */
export function ChangesTable({ rows, currency }: { rows: Row[]; currency: string }) {
  const [sort, setSort] = useState<{ column: string | null; direction: Direction }>({
    column: null,
    direction: "descending",
  });
  const [shown, setShown] = useState(PAGE);
  const sorted = useMemo(() => sortRows(rows, sort.column, sort.direction), [rows, sort]);
  const toggle = (id: string) =>
    setSort((s) => ({
      column: id,
      direction: s.column === id && s.direction === "ascending" ? "descending" : "ascending",
    }));
  return (
    <>
      <table class="changes">
        <caption>
          Changed prices ({rows.length}){sorted.length > shown ? `, the first ${shown} shown` : ""};
          click a column header to sort
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <SortHeader key={c.id} column={c} sort={sort} onSort={() => toggle(c.id)} />
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.slice(0, shown).map((row) => (
            <ChangeRow
              key={`${row.customerCode}|${row.productCode}`}
              row={row}
              currency={currency}
            />
          ))}
        </tbody>
      </table>
      {sorted.length > shown ? (
        <button type="button" class="secondary" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, sorted.length - shown)} more
        </button>
      ) : null}
    </>
  );
}
