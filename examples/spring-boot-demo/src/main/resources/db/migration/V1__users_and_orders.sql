-- The straddle workload's schema (/work/shared/DATASETS.md). Flyway runs it through the application's data source:
-- upstream in front of PostgreSQL (the mirror follows), on Accel's own store standalone.
CREATE TABLE users (
  id BIGSERIAL PRIMARY KEY,
  email VARCHAR(100) NOT NULL,
  name VARCHAR(100) NOT NULL,
  country CHAR(2) NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT now()
);
CREATE TABLE orders (
  order_id BIGSERIAL PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users (id),
  status VARCHAR(16) NOT NULL,
  total NUMERIC(12, 2) NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (email);
CREATE INDEX orders_status ON orders (status);
CREATE INDEX orders_user_status ON orders (user_id, status);
