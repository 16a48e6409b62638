CREATE TABLE `pricing_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	CONSTRAINT "pricing_version_one_row" CHECK("pricing_version"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `row_counts` (
	`table_name` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
