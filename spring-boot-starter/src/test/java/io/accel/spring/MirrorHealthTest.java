package io.accel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The fronting health verdicts from SHOW ACCEL STATUS values; {@link MirrorOutageTest} drives a live mirror through them. */
class MirrorHealthTest {
  private static Map<String, String> status(String replication, String lagMillis) {
    return Map.of("upstream", "db:5432/shop", "replication", replication, "lag (ms)", lagMillis);
  }

  @Test
  void streamingWithinMaxStalenessIsUp() {
    assertThat(AccelHealthIndicator.fronting(status("streaming", "120"), Optional.of(Duration.ofSeconds(1)))
        .getStatus()).isEqualTo(Status.UP);
    assertThat(AccelHealthIndicator.fronting(status("streaming", "90000"), Optional.empty()).getStatus())
        .isEqualTo(Status.UP);
  }

  @Test
  void lagBeyondMaxStalenessIsOutOfService() {
    Health h = AccelHealthIndicator.fronting(status("streaming", "2500"), Optional.of(Duration.ofSeconds(1)));
    assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(String.valueOf(h.getDetails().get("reason"))).contains("2500 ms").contains("accel.max-staleness");
  }

  @Test
  void catchingUpIsOutOfService() {
    assertThat(AccelHealthIndicator.fronting(status("catching up", "0"), Optional.empty()).getStatus())
        .isEqualTo(Status.OUT_OF_SERVICE);
  }

  @Test
  void reconnectingReplicationIsDown() {
    Health h = AccelHealthIndicator.fronting(status("reconnecting: connection refused", "0"), Optional.empty());
    assertThat(h.getStatus()).isEqualTo(Status.DOWN);
    assertThat(String.valueOf(h.getDetails().get("reason"))).contains("connection refused");
  }
}
