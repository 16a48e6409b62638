import type { RecordKind } from "../explorer/explain";
import { hrefOf } from "../lib/route";

export const KIND_NAME: Record<RecordKind, string> = {
  pricelist: "pricelist",
  tradeCondition: "trade condition",
  promotion: "promotion",
  quote: "quote",
  product: "product",
  productGroup: "product group",
  channel: "channel",
  customer: "customer",
  customerGroup: "customer group",
};

/** A link to the record page of the app (#/record/<kind>/<id or code>), named by kind and key. */
export function RecordLink({
  kind,
  id,
  name,
}: {
  kind: RecordKind;
  id: number | string;
  name?: string;
}) {
  return (
    <a href={hrefOf({ page: "record", kind, key: String(id) })}>
      {KIND_NAME[kind]} {id}
      {name ? ` · ${name}` : ""}
    </a>
  );
}
