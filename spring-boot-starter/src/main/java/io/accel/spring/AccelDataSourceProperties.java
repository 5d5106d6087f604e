package io.accel.spring;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;

/**
 * Hands the {@code accel.*} settings to the driver: each becomes a data source property of Hikari's pool, which
 * passes them to {@code Driver.connect} with every new connection. Also names the driver class in
 * {@code spring.datasource.*} when the application did not (Boot cannot tell it from a {@code jdbc:accel:} URL).
 * Only data sources on a {@code jdbc:accel:} URL are touched.
 */
public class AccelDataSourceProperties implements BeanPostProcessor {
  /** The Accel driver's class: named, not referenced, as the starter uses only JDBC and core's API. */
  static final String DRIVER = "io.accel.jdbc.AccelDriver";
  private final ObjectProvider<AccelProperties> properties;

  public AccelDataSourceProperties(ObjectProvider<AccelProperties> properties) {
    this.properties = properties;
  }

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (bean instanceof DataSourceProperties ds && ds.getUrl() != null && ds.getUrl().startsWith(OnAccelUrlCondition.PREFIX)
        && ds.getDriverClassName() == null) {
      ds.setDriverClassName(DRIVER);
    }
    if (bean instanceof HikariDataSource pool && pool.getJdbcUrl() != null
        && pool.getJdbcUrl().startsWith(OnAccelUrlCondition.PREFIX)) {
      for (Map.Entry<String, String> e : properties.getObject().connectionProperties().entrySet()) {
        pool.addDataSourceProperty(e.getKey(), e.getValue());
      }
    }
    return bean;
  }
}
