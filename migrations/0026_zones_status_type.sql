-- `zones_status` also holds the zone type: `GET /zones` leaves internal zones out unless `type`
-- names them, and its total count then still reads this index alone, not every zone row.
DROP INDEX `zones_status`;--> statement-breakpoint
CREATE INDEX `zones_status` ON `zones` (`status`,`name`,`type`);
