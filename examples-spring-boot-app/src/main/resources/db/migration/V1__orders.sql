-- the application's own first migration, in Flyway's default location and history table
CREATE TABLE orders (id BIGINT PRIMARY KEY, item VARCHAR(100) NOT NULL, registry_job VARCHAR(64));
