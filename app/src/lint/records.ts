import type { RecordKind } from "../explorer/explain";
import { api, unwrap } from "../lib/api";

interface RecordSource {
  /** The API path of the record, as a template */
  path: string;
  /** Its GET operation in /doc, for the link to /ui (Swagger UI deep links: #/<tag>/<operationId>) */
  tag: string;
  operationId: string;
  load: (key: string, signal: AbortSignal) => Promise<unknown>;
}

type UntypedGet = (
  path: string,
  init: { params: { path: Record<string, number> }; signal: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const id = (key: string) => {
  if (!/^[1-9][0-9]{0,15}$/.test(key)) throw new Error(`${key} is not a record id`);
  return Number(key);
};

/**
 * Where each kind of record a finding or a price step names is read: by id (pricelists, trade
 * conditions, promotions, quotes) or by code (the rest), through the typed client.
 */
export const RECORD_SOURCES: Record<RecordKind, RecordSource> = {
  pricelist: {
    path: "/v1/api/pricelist/{id}",
    tag: "Pricelists",
    operationId: "getPricelist",
    load: (key, signal) =>
      unwrap(api.GET("/v1/api/pricelist/{id}", { params: { path: { id: id(key) } }, signal })),
  },
  tradeCondition: {
    path: "/v1/api/trade-conditions/{id}",
    tag: "Trade conditions",
    operationId: "getTradeCondition",
    load: (key, signal) =>
      unwrap(
        api.GET("/v1/api/trade-conditions/{id}", { params: { path: { id: id(key) } }, signal }),
      ),
  },
  promotion: {
    path: "/v1/api/promotion/{id}",
    tag: "Promotions",
    operationId: "getPromotion",
    load: (key, signal) =>
      unwrap(api.GET("/v1/api/promotion/{id}", { params: { path: { id: id(key) } }, signal })),
  },
  quote: {
    path: "/v1/api/quotes/{id}",
    tag: "Quotes",
    operationId: "getQuote",
    // QUOTE_BELOW_FLOOR names quotes (docs/pricing-lint.md §17). The quote resource's typed path
    // arrives with it; until then the same GET, untyped.
    load: (key, signal) =>
      unwrap(
        (api.GET as unknown as UntypedGet)("/v1/api/quotes/{id}", {
          params: { path: { id: id(key) } },
          signal,
        }),
      ),
  },
  product: {
    path: "/v1/api/product/{code}",
    tag: "Products",
    operationId: "getProduct",
    load: (code, signal) =>
      unwrap(api.GET("/v1/api/product/{code}", { params: { path: { code } }, signal })),
  },
  productGroup: {
    path: "/v1/api/product-group/{code}",
    tag: "Product groups",
    operationId: "getProductGroup",
    load: (code, signal) =>
      unwrap(api.GET("/v1/api/product-group/{code}", { params: { path: { code } }, signal })),
  },
  channel: {
    path: "/v1/api/channel/{code}",
    tag: "Channels",
    operationId: "getChannel",
    load: (code, signal) =>
      unwrap(api.GET("/v1/api/channel/{code}", { params: { path: { code } }, signal })),
  },
  customer: {
    path: "/v1/api/customer/{code}",
    tag: "Customers",
    operationId: "getCustomer",
    load: (code, signal) =>
      unwrap(api.GET("/v1/api/customer/{code}", { params: { path: { code } }, signal })),
  },
  customerGroup: {
    path: "/v1/api/customer-group/{code}",
    tag: "Customer groups",
    operationId: "getCustomerGroup",
    load: (code, signal) =>
      unwrap(api.GET("/v1/api/customer-group/{code}", { params: { path: { code } }, signal })),
  },
};

export const isRecordKind = (kind: string): kind is RecordKind =>
  Object.hasOwn(RECORD_SOURCES, kind);

/** The record's URL in the API: "/v1/api/trade-conditions/42". */
export const apiPathOf = (kind: RecordKind, key: string) =>
  RECORD_SOURCES[kind].path.replace(/\{(id|code)\}/, encodeURIComponent(key));

/** Its GET operation on the API reference page, opened by Swagger UI's deep link. */
export const uiLinkOf = (kind: RecordKind) => {
  const { tag, operationId } = RECORD_SOURCES[kind];
  return `/ui#/${encodeURIComponent(tag)}/${encodeURIComponent(operationId)}`;
};
