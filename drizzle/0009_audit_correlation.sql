ALTER TABLE `audit_context` ADD `correlation_id` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `correlation_id` text;--> statement-breakpoint
CREATE INDEX `audit_log_correlation_idx` ON `audit_log` (`correlation_id`) WHERE "audit_log"."correlation_id" is not null;