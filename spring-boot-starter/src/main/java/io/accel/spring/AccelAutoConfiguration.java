package io.accel.spring;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration for an application whose {@code spring.datasource.url} is a {@code jdbc:accel:} URL: binds
 * {@code accel.*} and hands it to the pool, and, when the application has them, sends Accel's meters to its
 * MeterRegistry and adds the {@code accel} health indicator and actuator endpoint. Each bean backs off when the
 * application defines its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(name = "io.accel.jdbc.AccelDriver")
@Conditional(OnAccelUrlCondition.class)
@EnableConfigurationProperties(AccelProperties.class)
public class AccelAutoConfiguration {

  static AccelMode mode(Environment environment) {
    return AccelMode.of(environment.getProperty("spring.datasource.url"));
  }

  /** Static: a post-processor is created before other beans, and must not pull them in early. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"com.zaxxer.hikari.HikariDataSource",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceProperties"})
  static class Pool {
    @Bean
    static AccelDataSourceProperties accelDataSourceProperties(ObjectProvider<AccelProperties> properties) {
      return new AccelDataSourceProperties(properties);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  static class Meters {
    @Bean
    @ConditionalOnMissingBean
    AccelMeterRegistryBinding accelMeterRegistryBinding(ObjectProvider<MeterRegistry> registries) {
      return new AccelMeterRegistryBinding(registries);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  @ConditionalOnBean(DataSource.class)
  static class HealthCheck {
    @Bean
    @ConditionalOnMissingBean(name = "accelHealthIndicator")
    AccelHealthIndicator accelHealthIndicator(DataSource dataSource, AccelProperties properties,
        Environment environment) {
      return new AccelHealthIndicator(dataSource, mode(environment),
          Optional.ofNullable(properties.getMaxStaleness()));
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
  @ConditionalOnBean(DataSource.class)
  static class ActuatorEndpoint {
    @Bean
    @ConditionalOnMissingBean
    AccelEndpoint accelEndpoint(DataSource dataSource, Environment environment) {
      return new AccelEndpoint(new AccelCommands(dataSource), mode(environment));
    }
  }
}
