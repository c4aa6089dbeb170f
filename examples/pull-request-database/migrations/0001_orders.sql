-- The app's first table. Each file runs once, in its own transaction, as the database's owner.
CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item text NOT NULL
);
