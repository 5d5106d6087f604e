package io.accel.spring;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** The smallest Spring Boot application: a DataSource from spring.datasource.*, Actuator, and the starter. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class StarterTestApplication {
}
