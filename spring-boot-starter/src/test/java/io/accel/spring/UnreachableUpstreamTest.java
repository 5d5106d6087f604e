package io.accel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;

/** An upstream nobody listens on: the application starts, and its Accel health is DOWN saying why. */
@SpringBootTest(classes = StarterTestApplication.class, properties = {
    "spring.datasource.url=jdbc:accel:postgresql://127.0.0.1:1/nowhere",
    "spring.datasource.username=postgres",
    "spring.datasource.hikari.connection-timeout=1000",
    "accel.mirror-dir=target/unreachable-mirror"})
class UnreachableUpstreamTest {
  @Autowired
  AccelHealthIndicator health;

  @Test
  void healthIsDownNamingTheUpstream() {
    Health h = health.health();
    assertThat(h.getStatus()).isEqualTo(Status.DOWN);
    assertThat(h.getDetails()).containsEntry("mode", "fronting");
    assertThat(String.valueOf(h.getDetails().get("error"))).contains("127.0.0.1:1");
  }
}
