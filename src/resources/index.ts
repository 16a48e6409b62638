import { audit, auditTag } from "./audit";
import { brands, brandsTag } from "./brands";
import { changeRequests, changeRequestsTag } from "./change-requests";
import { changes, changesTag } from "./changes";
import { channels, channelsTag } from "./channels";
import { currencies, currenciesTag } from "./currencies";
import { customerGroups, customerGroupsTag } from "./customer-groups";
import { customers, customersTag } from "./customers";
import { exchangeRates, exchangeRatesTag } from "./exchange-rates";
import { me, meTag } from "./me";
import { pricelists, pricelistsTag } from "./pricelists";
import { prices, pricesTag } from "./prices";
import { pricingLint, pricingLintTag } from "./pricing-lint";
import { productGroups, productGroupsTag } from "./product-groups";
import { products, productsTag } from "./products";
import { promotions, promotionsTag } from "./promotions";
import { quotes, quotesTag } from "./quotes";
import { simulations, simulationsTag } from "./simulations";
import { tradeConditions, tradeConditionsTag } from "./trade-conditions";
import { webhooks, webhooksTag } from "./webhooks";

/**
 * The resource registry, the one list of resources: each one's router (mounted at the root by
 * app.ts) and its group of operations in /doc (src/doc/document.ts reads the tags from here), in
 * the order the reference shows them. A new resource is one line here.
 */
export const RESOURCES = [
  { tag: pricesTag, router: prices },
  { tag: productsTag, router: products },
  { tag: productGroupsTag, router: productGroups },
  { tag: brandsTag, router: brands },
  { tag: channelsTag, router: channels },
  { tag: customersTag, router: customers },
  { tag: customerGroupsTag, router: customerGroups },
  { tag: pricelistsTag, router: pricelists },
  { tag: tradeConditionsTag, router: tradeConditions },
  { tag: promotionsTag, router: promotions },
  { tag: currenciesTag, router: currencies },
  { tag: exchangeRatesTag, router: exchangeRates },
  { tag: pricingLintTag, router: pricingLint },
  { tag: simulationsTag, router: simulations },
  { tag: changeRequestsTag, router: changeRequests },
  { tag: quotesTag, router: quotes },
  { tag: auditTag, router: audit },
  { tag: changesTag, router: changes },
  { tag: webhooksTag, router: webhooks },
  { tag: meTag, router: me },
];

/** Every resource router, in the registry's order. */
export const routers = RESOURCES.map((resource) => resource.router);

/** The groups of /doc, in the registry's order. */
export const tags = RESOURCES.map((resource) => resource.tag);
