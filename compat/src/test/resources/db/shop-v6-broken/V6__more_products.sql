-- Fails half way: the second INSERT repeats a SKU, so the first must not stay either.
INSERT INTO products (sku, name, price) VALUES ('HS-01', 'Headset', 59.00);
INSERT INTO products (sku, name, price) VALUES ('KB-01', 'Keyboard again', 1.00);
