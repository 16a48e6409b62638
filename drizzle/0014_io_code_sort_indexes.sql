CREATE INDEX `customers_code_idx` ON `customers` (lower("code"),`id`);--> statement-breakpoint
CREATE INDEX `products_code_idx` ON `products` (lower("code"),`id`);