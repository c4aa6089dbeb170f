-- Rows a preview starts with.
INSERT INTO orders (item) VALUES ('tea'), ('cake');
