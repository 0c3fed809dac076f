DROP INDEX `dns_records_identity`;--> statement-breakpoint
CREATE UNIQUE INDEX `dns_records_identity` ON `dns_records` (`zone_id`,`name_rev`,`type`,`content`,ifnull(`priority`, -1));
