ALTER TABLE `api_tokens` ADD `not_before` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `account_id` text;