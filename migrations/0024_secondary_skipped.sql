-- What the copy a secondary zone holds lacks of its primary's zone: the records its transfers left
-- out (types the records API does not hold, records it refuses), as a JSON array of
-- {type, count, reason}. Null: no transfer has reported yet (copies made before this column).
ALTER TABLE `zones` ADD `secondary_skipped` text;
