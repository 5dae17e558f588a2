-- a host application's own first migration, in Flyway's default location, as a Spring Boot app would have it
CREATE TABLE orders (id BIGINT PRIMARY KEY, item VARCHAR(100) NOT NULL);
