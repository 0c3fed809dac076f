CREATE TABLE `directory_name_serials` (
	`name` text PRIMARY KEY NOT NULL,
	`serial` integer NOT NULL,
	`deleted_on` text NOT NULL
);
