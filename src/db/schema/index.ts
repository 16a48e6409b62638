export * from "./audit";
export * from "./bookkeeping";
export * from "./channels";
export * from "./customers";
export * from "./pricelists";
export * from "./products";
export * from "./promotions";
export * from "./trade-conditions";
