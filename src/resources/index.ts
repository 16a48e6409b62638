import { pricelists } from "./pricelists";
import { products } from "./products";

/** Every resource router, mounted at the root by app.ts. */
export const routers = [products, pricelists];
