package io.accel.compat.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

@Entity
@Table(name = "reviews")
public class Review {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @ManyToOne(optional = false)
  @JoinColumn(name = "book_id")
  private Book book;

  private short stars;

  @Column(length = 2000)
  private String body;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  protected Review() {
  }

  public Review(Book book, int stars, String body, LocalDateTime createdAt) {
    this.book = book;
    this.stars = (short) stars;
    this.body = body;
    this.createdAt = createdAt;
  }

  public Long getId() {
    return id;
  }

  public Book getBook() {
    return book;
  }

  public int getStars() {
    return stars;
  }

  public String getBody() {
    return body;
  }

  public LocalDateTime getCreatedAt() {
    return createdAt;
  }
}
