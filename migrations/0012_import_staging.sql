CREATE TABLE `import_staging` (
	`import_id` text NOT NULL,
	`ord` integer NOT NULL,
	`zone_id` text NOT NULL,
	`row` text NOT NULL,
	`created_on` text NOT NULL,
	PRIMARY KEY(`import_id`, `ord`)
);
--> statement-breakpoint
CREATE INDEX `import_staging_created` ON `import_staging` (`created_on`);