import type { Schemas } from "../lib/api";
import { parseInstant } from "../lib/instant";
import type { DraftKind } from "./drafts";

export type SimulationRequest = Schemas["PriceSimulationRequest"];

export interface SimulationForm {
  channelCode: string;
  /** "2026-06-15 10:00", UTC (lib/instant.ts); empty = now */
  at: string;
  quantity: string;
  /** How many changed rows the answer lists (maxRows); the summary counts them all */
  maxRows: string;
  activate: Record<DraftKind, number[]>;
  customers: "sample" | "codes" | "anonymous";
  customerSample: string;
  customerCodes: string;
  anonymous: boolean;
  products: "sample" | "codes" | "groups" | "brands";
  productSample: string;
  productCodes: string;
  groupCodes: string;
  brandCodes: string;
}

export const emptyForm = (): SimulationForm => ({
  channelCode: "",
  at: "",
  quantity: "1",
  maxRows: "1000",
  activate: { pricelists: [], tradeConditions: [], promotions: [] },
  customers: "sample",
  customerSample: "20",
  customerCodes: "",
  anonymous: true,
  products: "sample",
  productSample: "200",
  productCodes: "",
  groupCodes: "",
  brandCodes: "",
});

/** "C-1, C-2 C-3" → ["C-1", "C-2", "C-3"]: commas, semicolons or white space, each code once. */
export const codesOf = (text: string) => [
  ...new Set(text.split(/[\s,;]+/).filter((c) => c !== "")),
];

const whole = (text: string) => (/^[1-9][0-9]{0,6}$/.test(text) ? Number(text) : null);

function customersOf(form: SimulationForm): SimulationRequest["customers"] | string {
  if (form.customers === "anonymous") return { anonymous: true };
  const anonymous = form.anonymous ? { anonymous: true } : {};
  if (form.customers === "codes") {
    const codes = codesOf(form.customerCodes);
    return codes.length ? { codes, ...anonymous } : "Type at least one customer code.";
  }
  const sample = whole(form.customerSample);
  return sample
    ? { sample, ...anonymous }
    : "The number of customers must be a whole number from 1.";
}

function productsOf(form: SimulationForm): SimulationRequest["products"] | string {
  if (form.products === "codes") {
    const codes = codesOf(form.productCodes);
    return codes.length ? { codes } : "Type at least one product code.";
  }
  if (form.products === "groups") {
    const productGroupCodes = codesOf(form.groupCodes);
    return productGroupCodes.length
      ? { productGroupCodes }
      : "Type at least one product group code.";
  }
  if (form.products === "brands") {
    const brandCodes = codesOf(form.brandCodes);
    return brandCodes.length ? { brandCodes } : "Type at least one brand code.";
  }
  const sample = whole(form.productSample);
  return sample ? { sample } : "The number of products must be a whole number from 1.";
}

/**
 * The simulation the form describes, or a sentence saying what is missing. Bounds the page does
 * not know (100 customers, 1,000 products) are the API's to refuse, with its own message.
 */
export function simulationRequestOf(
  form: SimulationForm,
): { request: SimulationRequest } | { problem: string } {
  const { pricelists, tradeConditions, promotions } = form.activate;
  if (pricelists.length + tradeConditions.length + promotions.length === 0) {
    return { problem: "Choose at least one DRAFT record to activate." };
  }
  const quantity = whole(form.quantity);
  if (!form.channelCode) return { problem: "Choose a channel." };
  if (!quantity) return { problem: "The quantity must be a whole number from 1." };
  const maxRows = whole(form.maxRows);
  if (!maxRows) return { problem: "The rows to list must be a whole number from 1." };
  const at = parseInstant(form.at);
  if (!at.ok) return { problem: `Price at: ${at.error}.` };
  const customers = customersOf(form);
  const products = productsOf(form);
  if (typeof customers === "string") return { problem: customers };
  if (typeof products === "string") return { problem: products };
  const activate = {
    ...(pricelists.length ? { pricelistIds: pricelists } : {}),
    ...(tradeConditions.length ? { tradeConditionIds: tradeConditions } : {}),
    ...(promotions.length ? { promotionIds: promotions } : {}),
  };
  return {
    request: {
      channelCode: form.channelCode,
      ...(at.value ? { at: at.value } : {}),
      quantity,
      maxRows,
      customers,
      products,
      changes: { activate },
    },
  };
}
