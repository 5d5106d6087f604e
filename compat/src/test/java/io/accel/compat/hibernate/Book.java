package io.accel.compat.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.LocalDate;

@Entity
@Table(name = "books")
public class Book {
  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "books")
  @SequenceGenerator(name = "books", sequenceName = "books_seq", allocationSize = 50)
  private Long id;

  private String title;

  private String isbn;

  @Column(precision = 10, scale = 2)
  private BigDecimal price;

  private LocalDate published;

  @ManyToOne(fetch = FetchType.LAZY, optional = false)
  @JoinColumn(name = "author_id")
  private Author author;

  @Version
  private int version;

  protected Book() {
  }

  Book(Author author, String title, String isbn, BigDecimal price, LocalDate published) {
    this.author = author;
    this.title = title;
    this.isbn = isbn;
    this.price = price;
    this.published = published;
  }

  public Long getId() {
    return id;
  }

  public String getTitle() {
    return title;
  }

  public String getIsbn() {
    return isbn;
  }

  public BigDecimal getPrice() {
    return price;
  }

  public void setPrice(BigDecimal price) {
    this.price = price;
  }

  public LocalDate getPublished() {
    return published;
  }

  public Author getAuthor() {
    return author;
  }

  public int getVersion() {
    return version;
  }
}
