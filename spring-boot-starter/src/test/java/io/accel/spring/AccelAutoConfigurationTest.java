package io.accel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/** When the starter applies, and how a wrong accel.* setting stops the application from starting. */
class AccelAutoConfigurationTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(AccelAutoConfiguration.class));

  @Test
  void appliesToAnAccelUrl() {
    runner.withPropertyValues("spring.datasource.url=jdbc:accel:mem:autoconfig", "accel.tables=users, orders",
            "accel.consistency=eventual", "accel.max-staleness=2s", "accel.row-cache-size=8MB",
            "accel.plan-cache-size=10", "accel.slot-name=shop_mirror")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(AccelProperties.class)
              .hasSingleBean(AccelDataSourceProperties.class);
          assertThat(context.getBean(AccelProperties.class).connectionProperties())
              .containsEntry("tables", "users,orders")
              .containsEntry("consistency", "eventual")
              .containsEntry("maxStaleness", "2000ms")
              .containsEntry("rowCacheSize", "8388608")
              .containsEntry("planCacheSize", "10")
              .containsEntry("slotName", "shop_mirror")
              .doesNotContainKey("cursorCacheSize");
        });
  }

  @Test
  void backsOffForOtherUrls() {
    runner.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/shop", "accel.tables=users")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(AccelProperties.class)
            .doesNotHaveBean(AccelDataSourceProperties.class));
    runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(AccelProperties.class));
  }

  @Test
  void anUnknownPropertyFailsStartUpNamingIt() {
    assertThat(startUpFailure("accel.tabels=users")).contains("accel.tabels");
  }

  @Test
  void anInvalidValueFailsStartUpNamingTheProperty() {
    assertThat(startUpFailure("accel.consistency=strong")).contains("accel.consistency").contains("strong");
    assertThat(startUpFailure("accel.plan-cache-size=-1")).contains("accel.plan-cache-size");
    assertThat(startUpFailure("accel.max-staleness=soon")).contains("accel.max-staleness");
    assertThat(startUpFailure("accel.slot-name=Shop-Mirror")).contains("accel.slot-name");
  }

  /** Starts the application with {@code property} on an Accel URL; the messages of the failure's causes. */
  private static String startUpFailure(String property) {
    try (ConfigurableApplicationContext ignored = new SpringApplicationBuilder(StarterTestApplication.class)
        .properties("spring.datasource.url=jdbc:accel:mem:rejected", "spring.main.banner-mode=off", property)
        .run()) {
      throw new AssertionError("the application started with " + property);
    } catch (RuntimeException e) {
      StringBuilder messages = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append('\n');
      }
      return messages.toString();
    }
  }
}
