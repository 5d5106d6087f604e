package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Connection.prepareCall as PostgreSQL's driver reads it: plain SQL, {call f(...)} and {? = call f(...)}. */
class CallableStatementTest extends JdbcTestSupport {
  @Test
  void plainSqlRunsAsAPreparedStatement() throws SQLException {
    try (Connection c = connect(); CallableStatement cs = c.prepareCall("select current_schema()")) {
      assertThat(cs.execute()).isTrue();
      try (ResultSet rs = cs.getResultSet()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("public");
      }
    }
  }

  @Test
  void aFunctionsValueIsOutParameterOne() throws SQLException {
    try (Connection c = connect(); CallableStatement cs = c.prepareCall("{? = call upper(?)}")) {
      cs.registerOutParameter(1, Types.VARCHAR);
      cs.setString(2, "abc");
      cs.execute();
      assertThat(cs.getString(1)).isEqualTo("ABC");
      assertThat(cs.wasNull()).isFalse();
      cs.setString(2, null);
      cs.execute();
      assertThat(cs.getString(1)).isNull();
      assertThat(cs.wasNull()).isTrue();
      assertThatThrownBy(() -> cs.getString(2)).isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22023");
      assertThatThrownBy(() -> cs.setString(1, "x")).isInstanceOf(SQLException.class);
    }
  }

  @Test
  void aSetReturningCallIsItsRows() throws SQLException {
    try (Connection c = connect(); CallableStatement cs = c.prepareCall("{call generate_series(1, 3)}")) {
      List<Integer> values = new ArrayList<>();
      try (ResultSet rs = cs.executeQuery()) {
        while (rs.next()) {
          values.add(rs.getInt(1));
        }
      }
      assertThat(values).containsExactly(1, 2, 3);
    }
  }

  @Test
  void namedAndOtherOutParametersAreRefused() throws SQLException {
    try (Connection c = connect(); CallableStatement cs = c.prepareCall("{call generate_series(1, 2)}")) {
      assertThatThrownBy(() -> cs.registerOutParameter("x", Types.INTEGER)).isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
      assertThatThrownBy(() -> cs.registerOutParameter(1, Types.INTEGER)).isInstanceOf(SQLException.class);
    }
  }
}
