-- Two pricing data versions (issue 28, item 12; docs/api/prices.md §9). `version` is bumped by
-- every write that can change a price answer, as before: the isolate's cached contexts and admin
-- keys' ETags follow it. `seen_version` is bumped by those writes too, except the ones no read
-- key's answer depends on: a COST list no FLOOR derives from (the list, its rows, its assignments
-- to channels: a read key's lookup reads none of them) and an ACCRUAL trade condition (the
-- condition, its scales and links: never read for a read key, and an accrual never changes what
-- the customer pays). A read key's ETag is built from `seen_version`, so a cost write no longer
-- changes a storefront's tags. A COST list a FLOOR derives from moves that floor, and so prices
-- a read key sees: its writes bump both. When in doubt (a condition whose type changes, a list
-- whose kind changes) both are bumped: an extra tag change is harmless, a missed one is not.
-- Both are bumped to the same value in one UPDATE, so `seen_version` never passes `version`.
-- Every pricing_version trigger is made again below, with its own event, columns and WHEN.
ALTER TABLE `pricing_version` ADD `seen_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `pricing_version` SET seen_version = version WHERE id = 1;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_customer_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customer_groups_delete` AFTER DELETE ON `channel_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_customer_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customer_groups_insert` AFTER INSERT ON `channel_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_customer_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customer_groups_update` AFTER UPDATE ON `channel_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_customers_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customers_delete` AFTER DELETE ON `channel_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_customers_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customers_insert` AFTER INSERT ON `channel_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_customers_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customers_update` AFTER UPDATE ON `channel_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_pricelists_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_pricelists_delete` AFTER DELETE ON `channel_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM pricelists WHERE id = OLD.pricelist_id AND kind = 'COST') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_pricelists_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_pricelists_insert` AFTER INSERT ON `channel_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM pricelists WHERE id = NEW.pricelist_id AND kind = 'COST') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channel_pricelists_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_pricelists_update` AFTER UPDATE ON `channel_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM pricelists WHERE id = OLD.pricelist_id AND kind = 'COST') AND EXISTS (SELECT 1 FROM pricelists WHERE id = NEW.pricelist_id AND kind = 'COST')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channels_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channels_delete` AFTER DELETE ON `channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channels_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channels_insert` AFTER INSERT ON `channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_channels_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channels_update` AFTER UPDATE OF id, code, is_active, rounding_mode ON `channels`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code OR old.is_active IS NOT new.is_active OR old.rounding_mode IS NOT new.rounding_mode BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_group_members_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_members_delete` AFTER DELETE ON `customer_group_members` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_group_members_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_members_insert` AFTER INSERT ON `customer_group_members` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_group_members_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_members_update` AFTER UPDATE ON `customer_group_members` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_group_pricelists_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_pricelists_delete` AFTER DELETE ON `customer_group_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_group_pricelists_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_pricelists_insert` AFTER INSERT ON `customer_group_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_group_pricelists_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_pricelists_update` AFTER UPDATE ON `customer_group_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_groups_delete` AFTER DELETE ON `customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_groups_insert` AFTER INSERT ON `customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_groups_update` AFTER UPDATE OF id, code ON `customer_groups`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_pricelists_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_pricelists_delete` AFTER DELETE ON `customer_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_pricelists_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_pricelists_insert` AFTER INSERT ON `customer_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customer_pricelists_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_pricelists_update` AFTER UPDATE ON `customer_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customers_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customers_delete` AFTER DELETE ON `customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customers_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customers_insert` AFTER INSERT ON `customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_customers_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customers_update` AFTER UPDATE OF id, code ON `customers`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_exchange_rates_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_exchange_rates_delete` AFTER DELETE ON `exchange_rates` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_exchange_rates_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_exchange_rates_insert` AFTER INSERT ON `exchange_rates` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_exchange_rates_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_exchange_rates_update` AFTER UPDATE OF from_currency, to_currency, valid_from, rate ON `exchange_rates`
  WHEN old.from_currency IS NOT new.from_currency OR old.to_currency IS NOT new.to_currency OR old.valid_from IS NOT new.valid_from OR old.rate IS NOT new.rate BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_pricelist_prices_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_delete` AFTER DELETE ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM pricelists WHERE id = OLD.pricelist_id AND kind = 'COST') AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = OLD.pricelist_id)) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_pricelist_prices_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_insert` AFTER INSERT ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM pricelists WHERE id = NEW.pricelist_id AND kind = 'COST') AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = NEW.pricelist_id)) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_pricelist_prices_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_update` AFTER UPDATE ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN ((EXISTS (SELECT 1 FROM pricelists WHERE id = OLD.pricelist_id AND kind = 'COST') AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = OLD.pricelist_id)) AND (EXISTS (SELECT 1 FROM pricelists WHERE id = NEW.pricelist_id AND kind = 'COST') AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = NEW.pricelist_id))) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_pricelists_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelists_delete` AFTER DELETE ON `pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (OLD.kind = 'COST' AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = OLD.id)) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_pricelists_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelists_insert` AFTER INSERT ON `pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (NEW.kind = 'COST' AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = NEW.id)) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_pricelists_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelists_update` AFTER UPDATE ON `pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN ((OLD.kind = 'COST' AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = OLD.id)) AND (NEW.kind = 'COST' AND NOT EXISTS (SELECT 1 FROM pricelists WHERE base_pricelist_id = NEW.id))) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_product_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_product_groups_delete` AFTER DELETE ON `product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_product_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_product_groups_insert` AFTER INSERT ON `product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_product_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_product_groups_update` AFTER UPDATE OF id, code, parent_id ON `product_groups`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code OR old.parent_id IS NOT new.parent_id BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_products_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_delete` AFTER DELETE ON `products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_products_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_insert` AFTER INSERT ON `products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_products_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_update` AFTER UPDATE OF id, code, product_group_id, min_order_quantity, order_increment, max_order_quantity ON `products`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code OR old.product_group_id IS NOT new.product_group_id OR old.min_order_quantity IS NOT new.min_order_quantity OR old.order_increment IS NOT new.order_increment OR old.max_order_quantity IS NOT new.max_order_quantity BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_channels_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_channels_delete` AFTER DELETE ON `promotion_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_channels_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_channels_insert` AFTER INSERT ON `promotion_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_channels_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_channels_update` AFTER UPDATE ON `promotion_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_customer_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_customer_groups_delete` AFTER DELETE ON `promotion_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_customer_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_customer_groups_insert` AFTER INSERT ON `promotion_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_customer_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_customer_groups_update` AFTER UPDATE ON `promotion_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_product_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_product_groups_delete` AFTER DELETE ON `promotion_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_product_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_product_groups_insert` AFTER INSERT ON `promotion_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_product_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_product_groups_update` AFTER UPDATE ON `promotion_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_products_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_products_delete` AFTER DELETE ON `promotion_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_products_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_products_insert` AFTER INSERT ON `promotion_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotion_products_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_products_update` AFTER UPDATE ON `promotion_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotions_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotions_delete` AFTER DELETE ON `promotions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotions_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotions_insert` AFTER INSERT ON `promotions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_promotions_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotions_update` AFTER UPDATE ON `promotions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_channels_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_channels_delete` AFTER DELETE ON `trade_condition_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_channels_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_channels_insert` AFTER INSERT ON `trade_condition_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_channels_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_channels_update` AFTER UPDATE ON `trade_condition_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') AND EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_customer_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customer_groups_delete` AFTER DELETE ON `trade_condition_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_customer_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customer_groups_insert` AFTER INSERT ON `trade_condition_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_customer_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customer_groups_update` AFTER UPDATE ON `trade_condition_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') AND EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_customers_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customers_delete` AFTER DELETE ON `trade_condition_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_customers_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customers_insert` AFTER INSERT ON `trade_condition_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_customers_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customers_update` AFTER UPDATE ON `trade_condition_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') AND EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_product_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_product_groups_delete` AFTER DELETE ON `trade_condition_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_product_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_product_groups_insert` AFTER INSERT ON `trade_condition_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_product_groups_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_product_groups_update` AFTER UPDATE ON `trade_condition_product_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') AND EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_products_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_products_delete` AFTER DELETE ON `trade_condition_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_products_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_products_insert` AFTER INSERT ON `trade_condition_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_products_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_products_update` AFTER UPDATE ON `trade_condition_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') AND EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_scales_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_scales_delete` AFTER DELETE ON `trade_condition_scales` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_scales_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_scales_insert` AFTER INSERT ON `trade_condition_scales` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_condition_scales_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_scales_update` AFTER UPDATE ON `trade_condition_scales` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (EXISTS (SELECT 1 FROM trade_conditions WHERE id = OLD.trade_condition_id AND type = 'ACCRUAL') AND EXISTS (SELECT 1 FROM trade_conditions WHERE id = NEW.trade_condition_id AND type = 'ACCRUAL')) THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_conditions_delete`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_conditions_delete` AFTER DELETE ON `trade_conditions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN OLD.type = 'ACCRUAL' THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_conditions_insert`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_conditions_insert` AFTER INSERT ON `trade_conditions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN NEW.type = 'ACCRUAL' THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `pricing_version_trade_conditions_update`;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_conditions_update` AFTER UPDATE ON `trade_conditions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)),
    seen_version = CASE WHEN (OLD.type = 'ACCRUAL' AND NEW.type = 'ACCRUAL') THEN seen_version ELSE max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) END WHERE id = 1;
END;
