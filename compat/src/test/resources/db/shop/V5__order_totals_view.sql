CREATE VIEW order_totals AS
SELECT o.id AS order_id, o.customer_id, o.status, sum(l.quantity * p.price) AS total, count(*) AS lines
FROM orders o
JOIN order_lines l ON l.order_id = o.id
JOIN products p ON p.id = l.product_id
GROUP BY o.id, o.customer_id, o.status;

CREATE SEQUENCE invoice_no_seq START WITH 1000 INCREMENT BY 1;
