-- Pricing-version triggers of migration 0011's tables and columns (issue 12), in the style of
-- 0003: every insert, delete and price-relevant update bumps `pricing_version`, so a write to a
-- product group, a group link, a derivation, a floor or a quantity rule changes the price ETags.
--
-- - product_groups: code and parent_id reach answers (which records reach a product, at which
--   distance); the name does not.
-- - trade_condition_product_groups, promotion_product_groups: every change.
-- - products: the 0003 update trigger named only id and code; it is replaced by one that also
--   names the group and the quantity rule (min_order_quantity, order_increment,
--   max_order_quantity). Name and timestamps still do not bump the version.
-- - pricelists (kind, base_pricelist_id, adjustment_bp, rounding_*), trade_conditions
--   (scale_basis) and promotions (threshold_*): their 0003 update triggers fire on every column,
--   so the new columns are covered already.
CREATE TRIGGER `pricing_version_product_groups_insert` AFTER INSERT ON `product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_product_groups_update` AFTER UPDATE OF id, code, parent_id ON `product_groups`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code OR old.parent_id IS NOT new.parent_id BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_product_groups_delete` AFTER DELETE ON `product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_product_groups_insert` AFTER INSERT ON `promotion_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_product_groups_update` AFTER UPDATE ON `promotion_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_product_groups_delete` AFTER DELETE ON `promotion_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_product_groups_insert` AFTER INSERT ON `trade_condition_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_product_groups_update` AFTER UPDATE ON `trade_condition_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_product_groups_delete` AFTER DELETE ON `trade_condition_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER `pricing_version_products_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_update` AFTER UPDATE OF id, code, product_group_id, min_order_quantity, order_increment, max_order_quantity ON `products`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code OR old.product_group_id IS NOT new.product_group_id OR old.min_order_quantity IS NOT new.min_order_quantity OR old.order_increment IS NOT new.order_increment OR old.max_order_quantity IS NOT new.max_order_quantity BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;
