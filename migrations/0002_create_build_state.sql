CREATE TABLE `build_state` (
	`zone_id` text PRIMARY KEY NOT NULL,
	`zone_name` text NOT NULL,
	`built_seq` integer DEFAULT 0 NOT NULL,
	`built_at` integer,
	`last_full_build_at` integer,
	`last_error_at` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `change_log_zone_delete` ON `change_log` (`zone_id`,`seq`) WHERE op = 'zone_delete';