package io.accel.compat.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hibernate with the PostgreSQL dialect it detects, on a schema Flyway migrated ({@code db/library}) and that
 * Hibernate validates at start: CRUD on authors, their books and reviews, JPQL joins, paging, versions.
 */
class HibernateTest {
  @TempDir
  Path dir;

  private HikariDataSource ds;
  private SessionFactory sf;

  @BeforeEach
  void open() {
    ds = new HikariDataSource();
    ds.setJdbcUrl("jdbc:accel:file:" + dir.resolve("library"));
    ds.setMaximumPoolSize(4);
    Flyway.configure().dataSource(ds).locations("classpath:db/library").load().migrate();
    sf = sessionFactory(ds);
  }

  @AfterEach
  void close() {
    sf.close();
    ds.close();
  }

  private static SessionFactory sessionFactory(HikariDataSource ds) {
    Configuration cfg = new Configuration().addAnnotatedClass(Author.class).addAnnotatedClass(Book.class)
        .addAnnotatedClass(Review.class);
    cfg.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds);
    cfg.setProperty(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "validate");
    return cfg.buildSessionFactory();
  }

  @Test
  void hibernateDetectsThePostgreSqlDialect() {
    var dialect = sf.unwrap(SessionFactoryImplementor.class).getJdbcServices().getDialect();
    assertThat(dialect).isInstanceOf(PostgreSQLDialect.class);
    assertThat(dialect.getVersion().getMajor()).isEqualTo(15);
  }

  @Test
  void entitiesWithRelationsArePersistedFoundUpdatedAndDeleted() {
    List<Long> bookIds = new ArrayList<>();
    Long[] authorIds = sf.fromTransaction(s -> {
      Author le = new Author("Ursula K. Le Guin", LocalDate.of(1929, 10, 21));
      Author lem = new Author("Stanisław Lem", LocalDate.of(1921, 9, 12));
      s.persist(le);
      s.persist(lem);
      for (Book b : List.of(le.write("The Dispossessed", "978-0060512750", "15.99", LocalDate.of(1974, 5, 1)),
          le.write("A Wizard of Earthsea", "978-0547773742", "9.99", LocalDate.of(1968, 11, 1)),
          lem.write("Solaris", "978-0156027601", "14.50", LocalDate.of(1961, 1, 1)))) {
        s.persist(b);
        bookIds.add(b.getId());
      }
      return new Long[] {le.getId(), lem.getId()};
    });
    assertThat(authorIds[1]).isGreaterThan(authorIds[0]);
    assertThat(bookIds).doesNotHaveDuplicates().isSorted();

    sf.inTransaction(s -> {
      Book solaris = s.find(Book.class, bookIds.get(2));
      s.persist(new Review(solaris, 5, "A planet that thinks.", LocalDateTime.of(2024, 3, 1, 12, 0)));
      s.persist(new Review(solaris, 4, "Slow, then unforgettable.", LocalDateTime.of(2024, 3, 2, 9, 30)));
    });

    sf.inSession(s -> {
      Author le = s.find(Author.class, authorIds[0]);
      assertThat(le.getName()).isEqualTo("Ursula K. Le Guin");
      assertThat(le.getBorn()).isEqualTo(LocalDate.of(1929, 10, 21));
      assertThat(le.getBooks()).extracting(Book::getTitle).containsExactly("A Wizard of Earthsea", "The Dispossessed");
      Book solaris = s.find(Book.class, bookIds.get(2));
      assertThat(solaris.getAuthor().getName()).isEqualTo("Stanisław Lem");
      assertThat(solaris.getPrice()).isEqualByComparingTo("14.50");
      assertThat(solaris.getVersion()).isZero();
    });

    sf.inTransaction(s -> s.find(Book.class, bookIds.get(0)).setPrice(new BigDecimal("17.00")));
    sf.inSession(s -> {
      Book b = s.find(Book.class, bookIds.get(0));
      assertThat(b.getPrice()).isEqualByComparingTo("17.00");
      assertThat(b.getVersion()).isEqualTo(1);
    });

    sf.inTransaction(s -> s.createMutationQuery("delete from Review r where r.stars < 5").executeUpdate());
    sf.inTransaction(s -> s.remove(s.find(Book.class, bookIds.get(1))));
    sf.inSession(s -> {
      assertThat(s.find(Book.class, bookIds.get(1))).isNull();
      assertThat(s.createSelectionQuery("select count(r) from Review r", Long.class).getSingleResult()).isEqualTo(1L);
      assertThat(s.find(Author.class, authorIds[0]).getBooks()).extracting(Book::getTitle)
          .containsExactly("The Dispossessed");
    });
  }

  @Test
  void jpqlJoinsAggregatesAndPagesReadWhatWasWritten() {
    sf.inTransaction(s -> {
      for (int a = 1; a <= 3; a++) {
        Author author = new Author("Author " + a, null);
        s.persist(author);
        for (int b = 1; b <= 4 * a; b++) {
          Book book = author.write(String.format("Book %d-%02d", a, b), "isbn-" + a + "-" + b, a + "." + b + "0",
              LocalDate.of(2000 + b, 1, a));
          s.persist(book);
          if (b % 2 == 0) {
            s.persist(new Review(book, 1 + b % 5, "review of " + book.getTitle(), LocalDateTime.of(2024, 1, b, 8, 0)));
          }
        }
      }
    });

    sf.inSession(s -> {
      List<String> titles = s.createSelectionQuery(
          "select b.title from Book b join b.author a where a.name = :name and b.published >= :since order by b.title",
          String.class).setParameter("name", "Author 2").setParameter("since", LocalDate.of(2005, 1, 1)).getResultList();
      assertThat(titles).containsExactly("Book 2-05", "Book 2-06", "Book 2-07", "Book 2-08");

      List<Object[]> counts = s.createSelectionQuery(
          "select a.name, count(b), max(b.price) from Author a left join a.books b group by a.name order by a.name",
          Object[].class).getResultList();
      assertThat(counts).extracting(r -> r[0] + ":" + r[1] + ":" + r[2])
          .containsExactly("Author 1:4:1.40", "Author 2:8:2.80", "Author 3:12:3.90");

      Author three = s.createSelectionQuery("select a from Author a left join fetch a.books where a.name = :n",
          Author.class).setParameter("n", "Author 3").getSingleResult();
      assertThat(three.getBooks()).hasSize(12);

      List<String> reviewed = s.createSelectionQuery("select distinct b.title from Review r join r.book b"
          + " join b.author a where a.name = 'Author 1' order by b.title", String.class).getResultList();
      assertThat(reviewed).containsExactly("Book 1-02", "Book 1-04");

      List<String> page = new ArrayList<>();
      for (int first = 0; ; first += 5) {
        List<String> rows = s.createSelectionQuery("select b.title from Book b order by b.title desc", String.class)
            .setFirstResult(first).setMaxResults(5).getResultList();
        if (rows.isEmpty()) {
          break;
        }
        assertThat(rows.size()).isLessThanOrEqualTo(5);
        page.addAll(rows);
      }
      assertThat(page).hasSize(24).isSortedAccordingTo(java.util.Comparator.reverseOrder());
      assertThat(page.get(0)).isEqualTo("Book 3-12");
    });
  }

  @Test
  void ofTwoConcurrentUpdatesOfOneVersionTheSecondIsAnOptimisticLockFailure() {
    Long id = sf.fromTransaction(s -> {
      Author a = new Author("Someone", null);
      s.persist(a);
      Book b = a.write("Only Book", "isbn-only", "10.00", null);
      s.persist(b);
      return b.getId();
    });
    var first = sf.openSession();
    var second = sf.openSession();
    try {
      first.beginTransaction();
      second.beginTransaction();
      first.find(Book.class, id).setPrice(new BigDecimal("11.00"));
      second.find(Book.class, id).setPrice(new BigDecimal("12.00"));
      first.getTransaction().commit();
      // READ COMMITTED, as on PostgreSQL: the second UPDATE sees the first's version, matches no row, and Hibernate
      // reports the stale entity
      assertThatThrownBy(() -> second.getTransaction().commit()).satisfies(e -> {
        boolean stale = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
          stale |= t instanceof org.hibernate.StaleStateException || t instanceof jakarta.persistence.OptimisticLockException;
        }
        assertThat(stale).as("an optimistic lock failure: %s", e).isTrue();
      });
    } finally {
      first.close();
      second.close();
    }
    sf.inSession(s -> assertThat(s.find(Book.class, id).getPrice()).isEqualByComparingTo("11.00"));
  }

  @Test
  void reopeningTheStoreKeepsTheEntitiesAndIdsGoOnIncreasing() {
    Long bookId = sf.fromTransaction(s -> {
      Author a = new Author("Before", null);
      s.persist(a);
      Book b = a.write("First", "isbn-1", "1.00", null);
      s.persist(b);
      return b.getId();
    });
    close();
    open();
    Long next = sf.fromTransaction(s -> {
      Author a = s.createSelectionQuery("from Author where name = 'Before'", Author.class).getSingleResult();
      assertThat(a.getBooks()).extracting(Book::getTitle).containsExactly("First");
      Book b = a.write("Second", "isbn-2", "2.00", null);
      s.persist(b);
      return b.getId();
    });
    assertThat(next).isGreaterThan(bookId);
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
