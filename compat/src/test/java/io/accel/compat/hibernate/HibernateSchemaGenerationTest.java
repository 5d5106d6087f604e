package io.accel.compat.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hibernate creating its own schema (hbm2ddl drop-and-create) on an empty store, then using it. */
class HibernateSchemaGenerationTest {
  @TempDir
  Path dir;

  @Test
  void hibernateCreatesItsTablesAndSequencesAndUsesThem() {
    try (HikariDataSource ds = new HikariDataSource()) {
      ds.setJdbcUrl("jdbc:accel:file:" + dir.resolve("generated"));
      Configuration cfg = new Configuration().addAnnotatedClass(Author.class).addAnnotatedClass(Book.class)
          .addAnnotatedClass(Review.class);
      cfg.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds);
      cfg.setProperty(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "drop-and-create");
      // every statement must run: sequences, identity columns, tables, foreign keys and the drops before them
      cfg.setProperty(AvailableSettings.HBM2DDL_HALT_ON_ERROR, "true");
      try (SessionFactory sf = cfg.buildSessionFactory()) {
        Long id = sf.fromTransaction(s -> {
          Author a = new Author("Generated", LocalDate.of(1990, 1, 1));
          s.persist(a);
          Book b = a.write("Schema", "isbn-g", "3.50", null);
          s.persist(b);
          s.persist(new Review(b, 3, "ok", LocalDateTime.of(2024, 5, 5, 5, 5)));
          return b.getId();
        });
        sf.inSession(s -> assertThat(s.find(Book.class, id).getAuthor().getName()).isEqualTo("Generated"));
        // the foreign keys Hibernate declared hold
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sf.inTransaction(s -> s.createNativeMutationQuery(
            "insert into reviews (stars, book_id, created_at) values (1, 999999, now())").executeUpdate()))
            .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23503"));
      }
    }
  }

  private static String sqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.sql.SQLException sql) {
        return sql.getSQLState();
      }
    }
    return null;
  }
}
