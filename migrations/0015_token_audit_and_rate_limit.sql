CREATE TABLE `audit_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text,
	`action` text NOT NULL,
	`actor_token_id` text NOT NULL,
	`actor_ip` text,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`resource_name` text,
	`old_value` text,
	`new_value` text,
	`created_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_logs_account` ON `audit_logs` (`account_id`,`created_on`);--> statement-breakpoint
CREATE INDEX `audit_logs_created` ON `audit_logs` (`created_on`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `api_rate_limit` integer;