package io.accel.spring;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code accel} actuator endpoint: what {@code SHOW ACCEL STATUS}, {@code SHOW ACCEL TABLES},
 * {@code SHOW PROXIED QUERIES} (the statements sent upstream, and why) and {@code SHOW CACHES} return, run
 * through the application's DataSource. A command this mode does not answer (a standalone store proxies nothing)
 * shows {@code unavailable} with the reason instead of its rows.
 */
@Endpoint(id = "accel")
public class AccelEndpoint {
  private final AccelCommands commands;
  private final AccelMode mode;

  public AccelEndpoint(AccelCommands commands, AccelMode mode) {
    this.commands = commands;
    this.mode = mode;
  }

  @ReadOperation
  public Map<String, Object> accel() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("mode", mode.name().toLowerCase(java.util.Locale.ROOT));
    result.put("status", run("SHOW ACCEL STATUS"));
    result.put("tables", run("SHOW ACCEL TABLES"));
    result.put("proxied", run("SHOW PROXIED QUERIES"));
    result.put("caches", run("SHOW CACHES"));
    return result;
  }

  private Object run(String command) {
    try {
      List<Map<String, String>> rows = commands.rows(command);
      if (command.equals("SHOW ACCEL STATUS")) {
        Map<String, String> status = new LinkedHashMap<>();
        rows.forEach(r -> status.put(r.get("name"), r.get("value")));
        return status;
      }
      return rows;
    } catch (SQLException e) {
      return Map.of("unavailable", String.valueOf(e.getMessage()));
    }
  }
}
