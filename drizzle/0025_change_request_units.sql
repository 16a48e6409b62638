-- Change requests across price units (docs/pricing-rules.md §18, §20): the rows a request writes
-- are staged with their price unit, before (UPDATED rows) and after, so the apply writes it and
-- cancel gives it back.
ALTER TABLE `change_request_writes` ADD `before_price_unit` integer;--> statement-breakpoint
ALTER TABLE `change_request_writes` ADD `after_price_unit` integer DEFAULT 1 NOT NULL;