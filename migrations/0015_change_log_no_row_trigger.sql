-- The zone-deletion trigger of 0013 fired on every change-log insert: a row trigger runs its
-- program once per inserted row (10,000 times for a 10,000-change batch, to find no zone_delete)
-- and forces every INSERT … SELECT into change_log through a temporary table first. A zone's
-- deletion is a guarded commit like every other: it moves zones.change_seq to the sequence of its
-- zone_delete row, so `zones_behind_on_commit` lists the zone in the same transaction, once.
DROP TRIGGER IF EXISTS `zones_behind_on_zone_delete`;
