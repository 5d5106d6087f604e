-- Repeatable: re-applied whenever its text changes.
CREATE OR REPLACE VIEW customer_summary AS
SELECT c.id, c.email, c.name, count(o.id) AS orders
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.id
GROUP BY c.id, c.email, c.name;
