-- The triggers that note (change_seq, serial) in `zone_serials` (0018) upsert instead of
-- `INSERT OR REPLACE`: SQLite applies the conflict policy of the statement that fires a trigger to
-- the trigger's own statements, so an upsert of a zone row (`INSERT … ON CONFLICT DO UPDATE`, as an
-- account move writes zones on the destination shard) made the trigger's insert ABORT on a
-- (zone, seq) the destination already held, and the move's step failed every time it was retried.
DROP TRIGGER `zone_serials_on_create`;--> statement-breakpoint
CREATE TRIGGER `zone_serials_on_create` AFTER INSERT ON `zones`
BEGIN
  INSERT INTO `zone_serials` (`zone_id`, `seq`, `serial`)
    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`)
    ON CONFLICT (`zone_id`, `seq`) DO UPDATE SET `serial` = excluded.`serial`;
END;--> statement-breakpoint
DROP TRIGGER `zone_serials_on_commit`;--> statement-breakpoint
CREATE TRIGGER `zone_serials_on_commit` AFTER UPDATE OF `change_seq`, `serial` ON `zones`
  WHEN NEW.`serial` != OLD.`serial`
BEGIN
  INSERT INTO `zone_serials` (`zone_id`, `seq`, `serial`)
    VALUES (NEW.`id`, NEW.`change_seq`, NEW.`serial`)
    ON CONFLICT (`zone_id`, `seq`) DO UPDATE SET `serial` = excluded.`serial`;
END;
