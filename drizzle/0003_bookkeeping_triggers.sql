-- Bookkeeping kept by triggers (issue 5), so no write path can forget it and it is atomic with
-- the write (a D1 batch is one transaction; a trigger runs inside its statement).
--
-- 1. pricing_version: bumped by every insert, delete and relevant update of every table that can
--    change a price answer: pricelists and their prices and links, channels (code, is_active),
--    customers and customer groups (code) and their memberships, trade conditions and promotions
--    with all their link and scale tables, products (code). Names, descriptions and timestamps of
--    channels, customers, groups and products do not reach an answer and do not bump it.
--    The new value is the later of version + 1 and the statement's clock in ms: it only grows,
--    also after a Time Travel restore, so a version never names two different data states.
-- 2. row_counts: the number of products, so an unfiltered product list does not count 10^6 rows.
--
-- A bulk load that must skip the triggers can set both afterwards:
--   UPDATE pricing_version SET version = cast(unixepoch('subsec') * 1000 as integer) WHERE id = 1;
--   UPDATE row_counts SET n = (SELECT count(*) FROM products) WHERE table_name = 'products';
INSERT INTO `pricing_version` (id, version) VALUES (1, cast(unixepoch('subsec') * 1000 as integer));--> statement-breakpoint
INSERT INTO `row_counts` (table_name, n) SELECT 'products', count(*) FROM `products`;--> statement-breakpoint
CREATE TRIGGER `row_counts_products_insert` AFTER INSERT ON `products` BEGIN
  UPDATE `row_counts` SET n = n + 1 WHERE table_name = 'products';
END;--> statement-breakpoint
CREATE TRIGGER `row_counts_products_delete` AFTER DELETE ON `products` BEGIN
  UPDATE `row_counts` SET n = n - 1 WHERE table_name = 'products';
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customer_groups_insert` AFTER INSERT ON `channel_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customer_groups_update` AFTER UPDATE ON `channel_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customer_groups_delete` AFTER DELETE ON `channel_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customers_insert` AFTER INSERT ON `channel_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customers_update` AFTER UPDATE ON `channel_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_customers_delete` AFTER DELETE ON `channel_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_pricelists_insert` AFTER INSERT ON `channel_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_pricelists_update` AFTER UPDATE ON `channel_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channel_pricelists_delete` AFTER DELETE ON `channel_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channels_insert` AFTER INSERT ON `channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channels_update` AFTER UPDATE OF id, code, is_active ON `channels`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code OR old.is_active IS NOT new.is_active BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_channels_delete` AFTER DELETE ON `channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_members_insert` AFTER INSERT ON `customer_group_members` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_members_update` AFTER UPDATE ON `customer_group_members` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_members_delete` AFTER DELETE ON `customer_group_members` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_pricelists_insert` AFTER INSERT ON `customer_group_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_pricelists_update` AFTER UPDATE ON `customer_group_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_group_pricelists_delete` AFTER DELETE ON `customer_group_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_groups_insert` AFTER INSERT ON `customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_groups_update` AFTER UPDATE OF id, code ON `customer_groups`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_groups_delete` AFTER DELETE ON `customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_pricelists_insert` AFTER INSERT ON `customer_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_pricelists_update` AFTER UPDATE ON `customer_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customer_pricelists_delete` AFTER DELETE ON `customer_pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customers_insert` AFTER INSERT ON `customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customers_update` AFTER UPDATE OF id, code ON `customers`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_customers_delete` AFTER DELETE ON `customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_insert` AFTER INSERT ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_update` AFTER UPDATE ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_delete` AFTER DELETE ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelists_insert` AFTER INSERT ON `pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelists_update` AFTER UPDATE ON `pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelists_delete` AFTER DELETE ON `pricelists` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_insert` AFTER INSERT ON `products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_update` AFTER UPDATE OF id, code ON `products`
  WHEN old.id IS NOT new.id OR old.code IS NOT new.code BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_products_delete` AFTER DELETE ON `products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_channels_insert` AFTER INSERT ON `promotion_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_channels_update` AFTER UPDATE ON `promotion_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_channels_delete` AFTER DELETE ON `promotion_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_customer_groups_insert` AFTER INSERT ON `promotion_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_customer_groups_update` AFTER UPDATE ON `promotion_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_customer_groups_delete` AFTER DELETE ON `promotion_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_products_insert` AFTER INSERT ON `promotion_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_products_update` AFTER UPDATE ON `promotion_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotion_products_delete` AFTER DELETE ON `promotion_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotions_insert` AFTER INSERT ON `promotions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotions_update` AFTER UPDATE ON `promotions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_promotions_delete` AFTER DELETE ON `promotions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_channels_insert` AFTER INSERT ON `trade_condition_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_channels_update` AFTER UPDATE ON `trade_condition_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_channels_delete` AFTER DELETE ON `trade_condition_channels` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customer_groups_insert` AFTER INSERT ON `trade_condition_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customer_groups_update` AFTER UPDATE ON `trade_condition_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customer_groups_delete` AFTER DELETE ON `trade_condition_customer_groups` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customers_insert` AFTER INSERT ON `trade_condition_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customers_update` AFTER UPDATE ON `trade_condition_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_customers_delete` AFTER DELETE ON `trade_condition_customers` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_products_insert` AFTER INSERT ON `trade_condition_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_products_update` AFTER UPDATE ON `trade_condition_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_products_delete` AFTER DELETE ON `trade_condition_products` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_scales_insert` AFTER INSERT ON `trade_condition_scales` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_scales_update` AFTER UPDATE ON `trade_condition_scales` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_condition_scales_delete` AFTER DELETE ON `trade_condition_scales` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_conditions_insert` AFTER INSERT ON `trade_conditions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_conditions_update` AFTER UPDATE ON `trade_conditions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_trade_conditions_delete` AFTER DELETE ON `trade_conditions` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;
