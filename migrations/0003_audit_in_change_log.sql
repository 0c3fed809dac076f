DROP TABLE `audit_log`;--> statement-breakpoint
DROP INDEX `dns_records_zone_rev`;--> statement-breakpoint
DROP INDEX `dns_records_identity`;--> statement-breakpoint
CREATE UNIQUE INDEX `dns_records_identity` ON `dns_records` (`zone_id`,`name_rev`,`type`,`content`);--> statement-breakpoint
ALTER TABLE `change_log` ADD `token_id` text;--> statement-breakpoint
ALTER TABLE `change_log` ADD `before` text;--> statement-breakpoint
ALTER TABLE `change_log` ADD `after` text;