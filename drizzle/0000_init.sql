CREATE TABLE `channel_customer_groups` (
	`channel_id` integer NOT NULL,
	`customer_group_id` integer NOT NULL,
	PRIMARY KEY(`channel_id`, `customer_group_id`),
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_customer_groups_group_idx` ON `channel_customer_groups` (`customer_group_id`);--> statement-breakpoint
CREATE TABLE `channel_customers` (
	`channel_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	PRIMARY KEY(`channel_id`, `customer_id`),
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_customers_customer_idx` ON `channel_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_code_unique` ON `channels` (`code`);--> statement-breakpoint
CREATE INDEX `channels_name_idx` ON `channels` (lower("name"),`id`);--> statement-breakpoint
CREATE INDEX `channels_created_at_idx` ON `channels` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `customer_group_members` (
	`customer_group_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	PRIMARY KEY(`customer_group_id`, `customer_id`),
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `customer_group_members_customer_idx` ON `customer_group_members` (`customer_id`);--> statement-breakpoint
CREATE TABLE `customer_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_groups_code_unique` ON `customer_groups` (`code`);--> statement-breakpoint
CREATE INDEX `customer_groups_name_idx` ON `customer_groups` (lower("name"),`id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_code_unique` ON `customers` (`code`);--> statement-breakpoint
CREATE INDEX `customers_name_idx` ON `customers` (lower("name"),`id`);--> statement-breakpoint
CREATE TABLE `channel_pricelists` (
	`channel_id` integer NOT NULL,
	`pricelist_id` integer NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`channel_id`, `pricelist_id`),
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pricelist_id`) REFERENCES `pricelists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_pricelists_pricelist_idx` ON `channel_pricelists` (`pricelist_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `channel_pricelists_one_primary` ON `channel_pricelists` (`channel_id`) WHERE "channel_pricelists"."is_primary" = 1;--> statement-breakpoint
CREATE TABLE `customer_group_pricelists` (
	`customer_group_id` integer NOT NULL,
	`pricelist_id` integer NOT NULL,
	PRIMARY KEY(`customer_group_id`, `pricelist_id`),
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pricelist_id`) REFERENCES `pricelists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `customer_group_pricelists_pricelist_idx` ON `customer_group_pricelists` (`pricelist_id`);--> statement-breakpoint
CREATE TABLE `customer_pricelists` (
	`customer_id` integer NOT NULL,
	`pricelist_id` integer NOT NULL,
	PRIMARY KEY(`customer_id`, `pricelist_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pricelist_id`) REFERENCES `pricelists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `customer_pricelists_pricelist_idx` ON `customer_pricelists` (`pricelist_id`);--> statement-breakpoint
CREATE TABLE `pricelist_prices` (
	`pricelist_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`pricelist_id`, `product_id`, `min_quantity`),
	FOREIGN KEY (`pricelist_id`) REFERENCES `pricelists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `pricelist_prices_product_idx` ON `pricelist_prices` (`product_id`);--> statement-breakpoint
CREATE TABLE `pricelists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`scope` text NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`currency` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`valid_from` integer,
	`valid_to` integer,
	`tax_inclusive` integer DEFAULT false NOT NULL,
	`allows_trade_discounts` integer NOT NULL,
	`customer_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pricelists_owner_matches_scope" CHECK(("pricelists"."scope" = 'INDIVIDUAL') = ("pricelists"."customer_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `pricelists_customer_idx` ON `pricelists` (`customer_id`);--> statement-breakpoint
CREATE INDEX `pricelists_name_idx` ON `pricelists` (lower("name"),`id`);--> statement-breakpoint
CREATE INDEX `pricelists_scope_status_idx` ON `pricelists` (`scope`,`status`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_code_unique` ON `products` (`code`);--> statement-breakpoint
CREATE INDEX `products_name_idx` ON `products` (lower("name"),`id`);--> statement-breakpoint
CREATE TABLE `promotion_channels` (
	`promotion_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	PRIMARY KEY(`promotion_id`, `channel_id`),
	FOREIGN KEY (`promotion_id`) REFERENCES `promotions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `promotion_channels_channel_idx` ON `promotion_channels` (`channel_id`);--> statement-breakpoint
CREATE TABLE `promotion_customer_groups` (
	`promotion_id` integer NOT NULL,
	`customer_group_id` integer NOT NULL,
	PRIMARY KEY(`promotion_id`, `customer_group_id`),
	FOREIGN KEY (`promotion_id`) REFERENCES `promotions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `promotion_customer_groups_group_idx` ON `promotion_customer_groups` (`customer_group_id`);--> statement-breakpoint
CREATE TABLE `promotion_products` (
	`promotion_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	PRIMARY KEY(`promotion_id`, `product_id`),
	FOREIGN KEY (`promotion_id`) REFERENCES `promotions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `promotion_products_product_idx` ON `promotion_products` (`product_id`);--> statement-breakpoint
CREATE TABLE `promotions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`discount_type` text NOT NULL,
	`value` integer NOT NULL,
	`currency` text,
	`valid_from` integer,
	`valid_to` integer,
	`priority` integer DEFAULT 0 NOT NULL,
	`stacking` text DEFAULT 'BEST_OF' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `promotions_name_idx` ON `promotions` (lower("name"),`id`);--> statement-breakpoint
CREATE INDEX `promotions_status_idx` ON `promotions` (`status`);--> statement-breakpoint
CREATE TABLE `trade_condition_channels` (
	`trade_condition_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	PRIMARY KEY(`trade_condition_id`, `channel_id`),
	FOREIGN KEY (`trade_condition_id`) REFERENCES `trade_conditions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `trade_condition_channels_channel_idx` ON `trade_condition_channels` (`channel_id`);--> statement-breakpoint
CREATE TABLE `trade_condition_customer_groups` (
	`trade_condition_id` integer NOT NULL,
	`customer_group_id` integer NOT NULL,
	PRIMARY KEY(`trade_condition_id`, `customer_group_id`),
	FOREIGN KEY (`trade_condition_id`) REFERENCES `trade_conditions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trade_condition_customer_groups_group_idx` ON `trade_condition_customer_groups` (`customer_group_id`);--> statement-breakpoint
CREATE TABLE `trade_condition_customers` (
	`trade_condition_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	PRIMARY KEY(`trade_condition_id`, `customer_id`),
	FOREIGN KEY (`trade_condition_id`) REFERENCES `trade_conditions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trade_condition_customers_customer_idx` ON `trade_condition_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `trade_condition_products` (
	`trade_condition_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	PRIMARY KEY(`trade_condition_id`, `product_id`),
	FOREIGN KEY (`trade_condition_id`) REFERENCES `trade_conditions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `trade_condition_products_product_idx` ON `trade_condition_products` (`product_id`);--> statement-breakpoint
CREATE TABLE `trade_condition_scales` (
	`trade_condition_id` integer NOT NULL,
	`min_quantity` integer NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`trade_condition_id`, `min_quantity`),
	FOREIGN KEY (`trade_condition_id`) REFERENCES `trade_conditions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `trade_conditions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`scope` text NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`type` text NOT NULL,
	`discount_type` text NOT NULL,
	`value` integer NOT NULL,
	`currency` text,
	`valid_from` integer,
	`valid_to` integer,
	`priority` integer DEFAULT 0 NOT NULL,
	`stackable` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `trade_conditions_name_idx` ON `trade_conditions` (lower("name"),`id`);--> statement-breakpoint
CREATE INDEX `trade_conditions_status_scope_idx` ON `trade_conditions` (`status`,`scope`);