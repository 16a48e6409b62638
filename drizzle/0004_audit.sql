CREATE TABLE `audit_context` (
	`id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`request_id` text NOT NULL,
	`key_name` text NOT NULL,
	`operation` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	CONSTRAINT "audit_context_one_row" CHECK("audit_context"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`request_id` text NOT NULL,
	`key_name` text NOT NULL,
	`operation` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer,
	`entity_code` text,
	`entity_key` text NOT NULL,
	`action` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_entity_idx` ON `audit_log` (`entity`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_request_idx` ON `audit_log` (`request_id`);