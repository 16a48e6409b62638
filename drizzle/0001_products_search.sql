-- Substring search over products at catalogue scale (issue 5).
-- A trigram FTS5 index over lower(code) and lower(name), case-sensitive, so a phrase MATCH of a
-- lower()-ed term of 3 or more characters finds exactly the rows where
-- instr(lower(column), lower(term)) > 0: the list contract's search semantics, with no recheck.
-- lower() here is SQLite's (ASCII only), the same function the short-term fallback uses.
-- Contentless (the text lives in `products`), with contentless_delete so triggers can DELETE by
-- rowid. Drizzle cannot express virtual tables or triggers: this file is a custom migration.
-- To rebuild after a bulk load that bypassed the triggers:
--   DELETE FROM products_search;
--   INSERT INTO products_search(rowid, code, name) SELECT id, lower(code), lower(name) FROM products;
CREATE VIRTUAL TABLE `products_search` USING fts5(
  code,
  name,
  tokenize = 'trigram case_sensitive 1',
  content = '',
  contentless_delete = 1
);--> statement-breakpoint
INSERT INTO `products_search`(rowid, code, name)
  SELECT id, lower(code), lower(name) FROM `products`;--> statement-breakpoint
CREATE TRIGGER `products_search_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `products_search`(rowid, code, name) VALUES (new.id, lower(new.code), lower(new.name));
END;--> statement-breakpoint
CREATE TRIGGER `products_search_delete` AFTER DELETE ON `products` BEGIN
  DELETE FROM `products_search` WHERE rowid = old.id;
END;--> statement-breakpoint
CREATE TRIGGER `products_search_update` AFTER UPDATE OF id, code, name ON `products` BEGIN
  DELETE FROM `products_search` WHERE rowid = old.id;
  INSERT INTO `products_search`(rowid, code, name) VALUES (new.id, lower(new.code), lower(new.name));
END;
