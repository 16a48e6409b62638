import { audit } from "./audit";
import { changeRequests } from "./change-requests";
import { changes } from "./changes";
import { channels } from "./channels";
import { customerGroups } from "./customer-groups";
import { customers } from "./customers";
import { pricelists } from "./pricelists";
import { prices } from "./prices";
import { pricingLint } from "./pricing-lint";
import { productGroups } from "./product-groups";
import { products } from "./products";
import { promotions } from "./promotions";
import { simulations } from "./simulations";
import { tradeConditions } from "./trade-conditions";
import { webhooks } from "./webhooks";

/** Every resource router, mounted at the root by app.ts. */
export const routers = [
  products,
  productGroups,
  channels,
  customerGroups,
  customers,
  pricelists,
  tradeConditions,
  promotions,
  prices,
  pricingLint,
  simulations,
  changeRequests,
  audit,
  changes,
  webhooks,
];
