package io.accel.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.sql.AccelException;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The fronting URL and its properties: Accel's are taken out, every other one goes to pgJDBC. */
class UpstreamConfigTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void theUrlAndPropertiesAreParsed() {
    UpstreamConfig c = UpstreamConfig.parse("postgresql://app:secret@db.example.com:6543/shop",
        props("sslmode", "require", "tables", "orders, public.users", "maxStaleness", "500ms", "consistency",
            "eventual", "mirrorDir", "/var/lib/accel/shop"));
    assertThat(c.host()).isEqualTo("db.example.com");
    assertThat(c.port()).isEqualTo(6543);
    assertThat(c.database()).isEqualTo("shop");
    assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example.com:6543/shop");
    assertThat(c.pgProperties()).containsEntry("user", "app").containsEntry("password", "secret")
        .containsEntry("sslmode", "require").doesNotContainKeys("tables", "maxStaleness", "consistency", "mirrorDir");
    assertThat(c.tables()).containsExactly("orders", "public.users");
    assertThat(c.maxStaleness()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.consistency()).isEqualTo(UpstreamConfig.Consistency.EVENTUAL);
    assertThat(c.mirrorDir().toString()).isEqualTo("/var/lib/accel/shop");
    assertThat(c.slotName()).startsWith("accel_shop_").matches("[a-z0-9_]{1,63}");
    assertThat(c.publicationName()).isEqualTo(c.slotName() + "_pub");
  }

  @Test
  void defaultsAreReadYourWritesAndAPortOf5432() {
    UpstreamConfig c = UpstreamConfig.parse("postgresql://localhost/test", props("user", "me"));
    assertThat(c.port()).isEqualTo(5432);
    assertThat(c.consistency()).isEqualTo(UpstreamConfig.Consistency.READ_YOUR_WRITES);
    assertThat(c.readYourWritesTimeout()).isEqualTo(Duration.ZERO);
    assertThat(c.maxStaleness()).isNull();
    assertThat(c.tables()).isEmpty();
    // two mirror directories of one database get two slots (slot names are unique in the whole cluster)
    UpstreamConfig other = UpstreamConfig.parse("postgresql://localhost/test", props("user", "me", "mirrorDir", "/x"));
    assertThat(other.slotName()).isNotEqualTo(c.slotName());
  }

  @Test
  void badValuesAreClearErrors() {
    assertThatThrownBy(() -> UpstreamConfig.parse("postgresql://h/db", props("consistency", "strong")))
        .isInstanceOfSatisfying(AccelException.class, e -> assertThat(e.state().code()).isEqualTo("22023"))
        .hasMessageContaining("read-your-writes or eventual");
    assertThatThrownBy(() -> UpstreamConfig.parse("postgresql://h/db", props("maxStaleness", "soon")))
        .hasMessageContaining("maxStaleness");
    assertThatThrownBy(() -> UpstreamConfig.parse("postgresql://h:port/db", new Properties()))
        .hasMessageContaining("invalid port");
    assertThatThrownBy(() -> UpstreamConfig.parse("postgresql://h/db", props("slotName", "Bad-Name")))
        .hasMessageContaining("slotName");
  }
}
