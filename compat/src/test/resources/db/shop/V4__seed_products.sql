INSERT INTO products (sku, name, price) VALUES
    ('KB-01', 'Keyboard', 49.90),
    ('MS-01', 'Mouse', 19.50),
    ('MN-27', 'Monitor 27"', 279.00),
    ('CB-USB', 'USB-C cable', 9.99);

-- Prices were quoted without VAT; the shop shows them with it.
UPDATE products SET price = round(price * 1.2, 2);
