INSERT INTO products (sku, name, price) VALUES ('HS-01', 'Headset', 59.00);
INSERT INTO products (sku, name, price) VALUES ('KB-02', 'Keyboard, compact', 39.00);
