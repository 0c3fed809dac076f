CREATE TABLE `zone_serials` (
	`zone_id` text NOT NULL,
	`seq` integer NOT NULL,
	`serial` integer NOT NULL,
	PRIMARY KEY(`zone_id`, `seq`)
);
--> statement-breakpoint
CREATE INDEX `zone_serials_serial` ON `zone_serials` (`zone_id`,`serial`);--> statement-breakpoint
-- Every commit that moves a zone's serial notes (change_seq, serial) in the same transaction,
-- whichever path wrote: an IXFR maps a secondary's serial to the change-log entries after it.
CREATE TRIGGER `zone_serials_on_create` AFTER INSERT ON `zones`
BEGIN
  INSERT OR REPLACE INTO `zone_serials` (`zone_id`, `seq`, `serial`)
    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`);
END;
--> statement-breakpoint
CREATE TRIGGER `zone_serials_on_commit` AFTER UPDATE OF `change_seq`, `serial` ON `zones`
  WHEN NEW.`serial` != OLD.`serial`
BEGIN
  INSERT OR REPLACE INTO `zone_serials` (`zone_id`, `seq`, `serial`)
    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`);
END;
