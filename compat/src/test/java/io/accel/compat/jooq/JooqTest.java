package io.accel.compat.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jOOQ 3.19 with its POSTGRES dialect on a standalone file store: DDL, DML with RETURNING, queries, transactions. */
class JooqTest {
  private static final Table<Record> AUTHOR = table(name("public", "author"));
  private static final Table<Record> BOOK = table(name("public", "book"));
  private static final Field<Long> AUTHOR_ID = field(name("author", "id"), Long.class);
  private static final Field<String> AUTHOR_NAME = field(name("author", "name"), String.class);
  private static final Field<Long> BOOK_ID = field(name("book", "id"), Long.class);
  private static final Field<Long> BOOK_AUTHOR = field(name("book", "author_id"), Long.class);
  private static final Field<String> TITLE = field(name("book", "title"), String.class);
  private static final Field<BigDecimal> PRICE = field(name("book", "price"), BigDecimal.class);

  @TempDir
  Path store;

  @Test
  void schemaQueriesAndTransactions() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:accel:file:" + store)) {
      DSLContext db = DSL.using(c, SQLDialect.POSTGRES);
      db.createTable(AUTHOR)
          .column("id", SQLDataType.BIGINT.identity(true))
          .column("name", SQLDataType.VARCHAR(100).nullable(false))
          .constraints(DSL.primaryKey("id"), DSL.unique("name"))
          .execute();
      db.createTable(BOOK)
          .column("id", SQLDataType.BIGINT.identity(true))
          .column("author_id", SQLDataType.BIGINT.nullable(false))
          .column("title", SQLDataType.VARCHAR(200).nullable(false))
          .column("price", SQLDataType.NUMERIC(8, 2))
          .constraints(DSL.primaryKey("id"), DSL.foreignKey("author_id").references(name("public", "author"), name("id")))
          .execute();
      db.createIndex("book_author").on(BOOK, BOOK_AUTHOR).execute();

      Long ada = db.insertInto(AUTHOR, AUTHOR_NAME).values("Ada").returningResult(AUTHOR_ID).fetchOne().value1();
      Long alan = db.insertInto(AUTHOR, AUTHOR_NAME).values("Alan").returningResult(AUTHOR_ID).fetchOne().value1();
      assertThat(alan).isGreaterThan(ada);
      db.insertInto(BOOK, BOOK_AUTHOR, TITLE, PRICE)
          .values(ada, "Notes", new BigDecimal("12.50"))
          .values(ada, "Engines", new BigDecimal("30.00"))
          .values(alan, "Machines", null)
          .execute();

      Result<? extends Record> perAuthor = db.select(AUTHOR_NAME, count().as("books"), DSL.sum(PRICE).as("total"))
          .from(AUTHOR).join(BOOK).on(BOOK_AUTHOR.eq(AUTHOR_ID))
          .groupBy(AUTHOR_NAME).orderBy(AUTHOR_NAME).fetch();
      assertThat(perAuthor.getValues(AUTHOR_NAME)).containsExactly("Ada", "Alan");
      assertThat(perAuthor.getValues("books", Integer.class)).containsExactly(2, 1);
      assertThat(perAuthor.get(0).get("total", BigDecimal.class)).isEqualByComparingTo("42.50");

      List<String> cheap = db.select(TITLE).from(BOOK).where(PRICE.lt(new BigDecimal("20")).or(PRICE.isNull()))
          .orderBy(TITLE).limit(10).offset(0).fetch(TITLE);
      assertThat(cheap).containsExactly("Machines", "Notes");
      assertThat(db.fetchExists(db.selectOne().from(BOOK).where(TITLE.likeIgnoreCase("%ENGINE%")))).isTrue();

      assertThat(db.update(BOOK).set(PRICE, PRICE.mul(2)).where(BOOK_AUTHOR.eq(ada)).execute()).isEqualTo(2);
      assertThat(db.fetchValue(db.select(DSL.max(PRICE)).from(BOOK))).isEqualByComparingTo("60.00");

      // a failing transaction leaves nothing; a committed one stays
      assertThatThrownBy(() -> db.transaction(cfg -> {
        DSL.using(cfg).insertInto(AUTHOR, AUTHOR_NAME).values("Grace").execute();
        DSL.using(cfg).insertInto(AUTHOR, AUTHOR_NAME).values("Ada").execute();
      })).isInstanceOf(DataAccessException.class);
      assertThat(db.fetchCount(AUTHOR)).isEqualTo(2);
      db.transaction(cfg -> DSL.using(cfg).insertInto(AUTHOR, AUTHOR_NAME).values("Grace").execute());
      assertThat(db.fetchCount(AUTHOR)).isEqualTo(3);

      assertThatThrownBy(() -> db.insertInto(BOOK, BOOK_AUTHOR, TITLE).values(999L, "Orphan").execute())
          .isInstanceOf(DataAccessException.class).hasMessageContaining("foreign key");
      assertThat(db.deleteFrom(BOOK).where(BOOK_ID.in(db.select(BOOK_ID).from(BOOK).where(PRICE.isNull())))
          .execute()).isEqualTo(1);
      // the catalog as jOOQ reads it
      assertThat(db.meta().getTables(BOOK.getName())).isNotEmpty();
    }
  }
}
