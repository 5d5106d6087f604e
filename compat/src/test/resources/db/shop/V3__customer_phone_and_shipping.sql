ALTER TABLE customers ADD COLUMN phone VARCHAR(30);
ALTER TABLE orders ADD COLUMN shipped_at TIMESTAMP;
ALTER TABLE orders ADD COLUMN IF NOT EXISTS priority SMALLINT NOT NULL DEFAULT 0;
CREATE INDEX orders_status_idx ON orders (status) INCLUDE (customer_id);
