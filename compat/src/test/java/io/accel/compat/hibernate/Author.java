package io.accel.compat.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

@Entity
@Table(name = "authors")
public class Author {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  private String name;

  private LocalDate born;

  @OneToMany(mappedBy = "author")
  @OrderBy("title")
  private List<Book> books = new ArrayList<>();

  protected Author() {
  }

  public Author(String name, LocalDate born) {
    this.name = name;
    this.born = born;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public LocalDate getBorn() {
    return born;
  }

  public List<Book> getBooks() {
    return books;
  }

  /** Adds a book written by this author (both sides of the relation). */
  public Book write(String title, String isbn, String price, LocalDate published) {
    Book b = new Book(this, title, isbn, new java.math.BigDecimal(price), published);
    books.add(b);
    return b;
  }
}
