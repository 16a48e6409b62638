import { formatBp } from "../lib/money";
import { RecordLink } from "../ui/RecordLink";
import type { ChangeRequest } from "./lifecycle";
import type { Pricelist } from "./pricelists";

type Item = ChangeRequest["items"][number];
type Format = (amount: number, signed?: boolean) => string;

/** Rows of a SET_PRICES item shown at once; the rest are counted. */
const ROWS_SHOWN = 50;

const ROUNDING_WORD = { NEAREST: "to the nearest", UP: "up", DOWN: "down" } as const;

function ListName({ id, lists }: { id: number; lists: ReadonlyMap<number, Pricelist> }) {
  return <RecordLink kind="pricelist" id={id} name={lists.get(id)?.name} />;
}

function Adjust({
  item,
  lists,
  format,
}: {
  item: Item;
  lists: ReadonlyMap<number, Pricelist>;
  format: Format;
}) {
  if (item.kind !== "ADJUST_PRICES") return null;
  const groups = item.productGroupCodes ?? [];
  const brands = item.brandCodes ?? [];
  const products = item.productCodes ?? [];
  const which = [
    ...(groups.length
      ? [
          `the products in group${groups.length > 1 ? "s" : ""} ${groups.join(", ")} (and the groups below)`,
        ]
      : []),
    ...(brands.length
      ? [`the products of brand${brands.length > 1 ? "s" : ""} ${brands.join(", ")}`]
      : []),
    ...(products.length ? [`product${products.length > 1 ? "s" : ""} ${products.join(", ")}`] : []),
  ];
  const { rounding } = item;
  return (
    <>
      <strong>Adjust</strong> <ListName id={item.pricelistId} lists={lists} /> by{" "}
      <strong data-field="adjustment">{formatBp(item.adjustmentBp, true)}</strong>: every tier in
      force then of {which.length ? which.join(" and ") : "every product of the list"}
      {rounding
        ? `, rounded ${ROUNDING_WORD[rounding.mode]} to a price k × ${format(rounding.step)} + ${format(rounding.ending)}`
        : ", not rounded"}
      .
    </>
  );
}

function SetPrices({
  item,
  lists,
  format,
}: {
  item: Item;
  lists: ReadonlyMap<number, Pricelist>;
  format: Format;
}) {
  if (item.kind !== "SET_PRICES") return null;
  return (
    <>
      <strong>Set</strong> {item.rows.length} price row(s) of{" "}
      <ListName id={item.pricelistId} lists={lists} />:
      <table class="rows">
        <caption class="visually-hidden">The price rows set</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col" class="num">
              From quantity
            </th>
            <th scope="col" class="num">
              Price
            </th>
          </tr>
        </thead>
        <tbody>
          {item.rows.slice(0, ROWS_SHOWN).map((r) => (
            <tr key={`${r.productCode} ${r.minQuantity}`}>
              <td>{r.productCode}</td>
              <td class="num">{r.minQuantity}</td>
              <td class="num">{format(r.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {item.rows.length > ROWS_SHOWN ? (
        <p class="muted">and {item.rows.length - ROWS_SHOWN} more row(s).</p>
      ) : null}
    </>
  );
}

function Lifecycle({ item }: { item: Item }) {
  if (item.kind !== "ACTIVATE" && item.kind !== "DEACTIVATE") return null;
  return (
    <>
      <strong>{item.kind === "ACTIVATE" ? "Activate" : "Deactivate"}</strong>{" "}
      <RecordLink kind={item.target.kind} id={item.target.id} />
      {item.kind === "ACTIVATE" ? " from then on." : ": it stops pricing then."}
    </>
  );
}

/** The items in the order they are made, each as a sentence (SET_PRICES with its rows). */
export function Items(props: {
  items: readonly Item[];
  lists: ReadonlyMap<number, Pricelist>;
  format: Format;
}) {
  return (
    <section aria-labelledby="items-title">
      <h2 id="items-title">What changes</h2>
      <ol class="items">
        {props.items.map((item, i) => (
          <li key={i} data-kind={item.kind}>
            <Adjust item={item} lists={props.lists} format={props.format} />
            <SetPrices item={item} lists={props.lists} format={props.format} />
            <Lifecycle item={item} />
          </li>
        ))}
      </ol>
    </section>
  );
}
