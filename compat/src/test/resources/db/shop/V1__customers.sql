-- Customers with a BIGSERIAL key, a unique email and a lookup index.
CREATE TABLE customers (
    id         BIGSERIAL PRIMARY KEY,
    email      VARCHAR(200) NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT now()
);

CREATE INDEX customers_name_idx ON customers (name);
