-- Dated price rows (docs/pricing-rules.md §17): a row of a pricelist applies from validFrom
-- (inclusive; null: always) to validTo (exclusive; null: open-ended), and the rows of one list,
-- product and minQuantity form a timeline of rows that never overlap. SQLite cannot change a
-- primary key, so the table is rebuilt: no primary key, a unique key on (list, product, tier,
-- validFrom) with "from always" standing in for null (-9007199254740991, src/db/schema/pricelists.ts
-- ALWAYS), and the reader's covering index by product then list, now with the window. Every
-- existing row stays an undated one. Dropping the old table drops its triggers: the pricing
-- version's and the audit trail's are created again below.
CREATE TABLE `__new_pricelist_prices` (
	`pricelist_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`valid_from` integer,
	`valid_to` integer,
	`amount` integer NOT NULL,
	FOREIGN KEY (`pricelist_id`) REFERENCES `pricelists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "pricelist_prices_window" CHECK("__new_pricelist_prices"."valid_to" is null or "__new_pricelist_prices"."valid_from" is null or "__new_pricelist_prices"."valid_to" > "__new_pricelist_prices"."valid_from")
);--> statement-breakpoint
INSERT INTO `__new_pricelist_prices` (`pricelist_id`, `product_id`, `min_quantity`, `amount`)
  SELECT `pricelist_id`, `product_id`, `min_quantity`, `amount` FROM `pricelist_prices`;--> statement-breakpoint
DROP TABLE `pricelist_prices`;--> statement-breakpoint
ALTER TABLE `__new_pricelist_prices` RENAME TO `pricelist_prices`;--> statement-breakpoint
CREATE UNIQUE INDEX `pricelist_prices_key` ON `pricelist_prices` (`pricelist_id`,`product_id`,`min_quantity`,coalesce(`valid_from`, -9007199254740991));--> statement-breakpoint
CREATE INDEX `pricelist_prices_lookup_idx` ON `pricelist_prices` (`product_id`,`pricelist_id`,`min_quantity`,`valid_from`,`valid_to`,`amount`);--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_insert` AFTER INSERT ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_update` AFTER UPDATE ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
CREATE TRIGGER `pricing_version_pricelist_prices_delete` AFTER DELETE ON `pricelist_prices` BEGIN
  UPDATE `pricing_version` SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_pricelist_prices_insert`;--> statement-breakpoint
CREATE TRIGGER `audit_pricelist_prices_insert` AFTER INSERT ON `pricelist_prices`
  WHEN EXISTS (SELECT 1 FROM audit_context) BEGIN
  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)
  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, 'pricelistPrice', NULL, NULL,
    json_object('pricelistId', NEW.pricelist_id, 'productId', NEW.product_id, 'minQuantity', NEW.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.valid_from / 1000.0, 'unixepoch')),
    'INSERT',
    NULL,
    json_object('pricelistId', NEW.pricelist_id, 'productId', NEW.product_id, 'minQuantity', NEW.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.valid_from / 1000.0, 'unixepoch'), 'validTo', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.valid_to / 1000.0, 'unixepoch'), 'amount', NEW.amount)
  FROM audit_context c;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_pricelist_prices_update`;--> statement-breakpoint
CREATE TRIGGER `audit_pricelist_prices_update` AFTER UPDATE ON `pricelist_prices`
  WHEN EXISTS (SELECT 1 FROM audit_context) AND (OLD.pricelist_id IS NOT NEW.pricelist_id OR OLD.product_id IS NOT NEW.product_id OR OLD.min_quantity IS NOT NEW.min_quantity OR OLD.valid_from IS NOT NEW.valid_from OR OLD.valid_to IS NOT NEW.valid_to OR OLD.amount IS NOT NEW.amount) BEGIN
  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)
  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, 'pricelistPrice', NULL, NULL,
    json_object('pricelistId', NEW.pricelist_id, 'productId', NEW.product_id, 'minQuantity', NEW.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.valid_from / 1000.0, 'unixepoch')),
    'UPDATE',
    json_object('pricelistId', OLD.pricelist_id, 'productId', OLD.product_id, 'minQuantity', OLD.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.valid_from / 1000.0, 'unixepoch'), 'validTo', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.valid_to / 1000.0, 'unixepoch'), 'amount', OLD.amount),
    json_object('pricelistId', NEW.pricelist_id, 'productId', NEW.product_id, 'minQuantity', NEW.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.valid_from / 1000.0, 'unixepoch'), 'validTo', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.valid_to / 1000.0, 'unixepoch'), 'amount', NEW.amount)
  FROM audit_context c;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_pricelist_prices_delete`;--> statement-breakpoint
CREATE TRIGGER `audit_pricelist_prices_delete` AFTER DELETE ON `pricelist_prices`
  WHEN EXISTS (SELECT 1 FROM audit_context) BEGIN
  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)
  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, 'pricelistPrice', NULL, NULL,
    json_object('pricelistId', OLD.pricelist_id, 'productId', OLD.product_id, 'minQuantity', OLD.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.valid_from / 1000.0, 'unixepoch')),
    'DELETE',
    json_object('pricelistId', OLD.pricelist_id, 'productId', OLD.product_id, 'minQuantity', OLD.min_quantity, 'validFrom', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.valid_from / 1000.0, 'unixepoch'), 'validTo', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.valid_to / 1000.0, 'unixepoch'), 'amount', OLD.amount),
    NULL
  FROM audit_context c;
END;
