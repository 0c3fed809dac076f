-- Every deployment starts with one account that zones can be created in.
INSERT OR IGNORE INTO accounts (id, name, max_batch_changes, created_on)
VALUES ('a0000000000000000000000000000001', 'Default account', NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
