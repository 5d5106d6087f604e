-- The straddle workload's schema (docs: /work/shared/DATASETS.md). Ids are assigned by the application: the
-- standalone engine has no SERIAL or identity columns yet. IF NOT EXISTS because the standalone profile runs this
-- file at every start through spring.sql.init: Flyway does not know Accel's standalone database.
CREATE TABLE IF NOT EXISTS users (
  id BIGINT PRIMARY KEY,
  email VARCHAR(100) NOT NULL,
  name VARCHAR(100) NOT NULL,
  country CHAR(2) NOT NULL,
  created_at TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
  order_id BIGINT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL,
  total NUMERIC(12, 2) NOT NULL,
  created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users (email);
CREATE INDEX IF NOT EXISTS orders_status ON orders (status);
CREATE INDEX IF NOT EXISTS orders_user_status ON orders (user_id, status);
