package com.example.orders;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.spec.RegistrySpec;
import java.time.Duration;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An orders service that provisions a container registry for each order it takes, through the engine the starter
 * makes on the service's own PostgreSQL DataSource.
 */
@SpringBootApplication
public class OrdersApplication {
  public static void main(String[] args) {
    SpringApplication.run(OrdersApplication.class, args);
  }

  /** Injects the engine, as an application's beans do: the engine must still come after the migrations. */
  @Bean
  ApplicationRunner takeAnOrder(Provisioner zop, JdbcTemplate jdbc) {
    return args -> {
      long id = jdbc.queryForObject("SELECT COALESCE(MAX(id), 0) + 1 FROM orders", Long.class);
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "orders-" + id));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "orders-" + id, account.id()).region("sim-east-1"));
      Job job = zop.jobs().submit(space.id(), RegistrySpec.named("orders/app-" + id), SubmitOptions.none());
      job = zop.jobs().await(job.id(), Duration.ofSeconds(60));
      if (job.status() != JobStatus.SUCCEEDED) {
        throw new IllegalStateException("the registry job ended " + job.status() + ": " + job.lastFailure());
      }
      jdbc.update("INSERT INTO orders (id, item, registry_job) VALUES (?, ?, ?)", id, "registry", job.id().value());
    };
  }
}
