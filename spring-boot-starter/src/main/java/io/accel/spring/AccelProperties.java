package io.accel.spring;

import io.accel.upstream.UpstreamConfig.Consistency;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Accel's settings ({@code accel.*}), passed to the driver as connection properties of the
 * {@code spring.datasource.url} connection. Unset values keep the driver's defaults; a property in the URL itself
 * ({@code jdbc:accel:...?tables=users}) wins over the same one here. An unknown {@code accel.*} key or an invalid
 * value fails start-up naming the property (the class validates itself: Spring calls {@link #validate}).
 */
@ConfigurationProperties(prefix = "accel", ignoreUnknownFields = false)
public class AccelProperties implements Validator {

  /** Fronting: tables to mirror ({@code name} or {@code schema.name}); default every table on the search path. */
  private List<String> tables = new ArrayList<>();

  /** Fronting: {@code read-your-writes} (default) or {@code eventual} (reads may lag by the replication lag). */
  private Consistency consistency;

  /** Fronting: reads go upstream while the mirror lags more than this; also the health check's lag limit. */
  private Duration maxStaleness;

  /** Fronting: how long a read after a write may wait for the mirror to hold the write before going upstream. */
  private Duration readYourWritesTimeout;

  /** Fronting: the directory of the mirror's store (one process at a time); default ./accel-mirror/host-port-db. */
  private Path mirrorDir;

  /** Fronting: the upstream replication slot the mirror owns (lower-case letters, digits, underscores). */
  private String slotName;

  /** Fronting: the upstream publication the mirror owns (lower-case letters, digits, underscores). */
  private String publicationName;

  /** Whether a commit waits for the store's write-ahead log to reach the disk (default true). Store-wide. */
  private Boolean syncCommits;

  /** RocksDB block cache of the store (default 128MB). Store-wide. */
  private DataSize blockCacheSize;

  /** Cache of decoded rows above the block cache (default 256MB, at most a quarter of the heap; 0 for none). */
  private DataSize rowCacheSize;

  /** Bound of the result caches (CREATE CACHE, auto-cache) in heap bytes (default 64MB, at most an eighth of the heap; 0 turns them off). Store-wide. */
  private DataSize resultCacheSize;

  /** Whether every query Accel can keep exact is cached on its second execution (default false). Store-wide. */
  private Boolean autoCache;

  /** Plans kept per connection (default 1000; 0 plans every statement afresh). */
  private Integer planCacheSize;

  /** Paged queries' cursors a connection keeps for the next LIMIT/OFFSET page (default 100; 0 for none). */
  private Integer cursorCacheSize;

  /** The session time zone of Accel's connections (default the JVM's). */
  private ZoneId timeZone;

  /** For comparisons only: false reads tables by full scans only. */
  private Boolean indexScans;

  /** For comparisons only: false fetches each index entry's row before evaluating conditions on it. */
  private Boolean icp;

  /** For comparisons only: false turns index lookup joins off. */
  private Boolean lookupJoins;

  /** The driver's connection properties for the values set here, in the driver's own names and syntax. */
  public Map<String, String> connectionProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    if (!tables.isEmpty()) {
      p.put("tables", String.join(",", tables));
    }
    put(p, "consistency", consistency == null ? null : consistency.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
    put(p, "maxStaleness", maxStaleness == null ? null : maxStaleness.toMillis() + "ms");
    put(p, "readYourWritesTimeout", readYourWritesTimeout == null ? null : readYourWritesTimeout.toMillis() + "ms");
    put(p, "mirrorDir", mirrorDir == null ? null : mirrorDir.toString());
    put(p, "slotName", slotName);
    put(p, "publicationName", publicationName);
    put(p, "syncCommits", syncCommits);
    put(p, "blockCacheSize", blockCacheSize == null ? null : blockCacheSize.toBytes());
    put(p, "rowCacheSize", rowCacheSize == null ? null : rowCacheSize.toBytes());
    put(p, "resultCacheSize", resultCacheSize == null ? null : resultCacheSize.toBytes());
    put(p, "autoCache", autoCache);
    put(p, "planCacheSize", planCacheSize);
    put(p, "cursorCacheSize", cursorCacheSize);
    put(p, "timeZone", timeZone == null ? null : timeZone.getId());
    put(p, "indexScans", indexScans);
    put(p, "icp", icp);
    put(p, "lookupJoins", lookupJoins);
    return p;
  }

  private static void put(Map<String, String> p, String name, Object value) {
    if (value != null) {
      p.put(name, value.toString());
    }
  }

  @Override
  public boolean supports(Class<?> type) {
    return AccelProperties.class.isAssignableFrom(type);
  }

  /** The driver's own rules, checked at start-up rather than at the first connection. */
  @Override
  public void validate(Object target, Errors errors) {
    AccelProperties p = (AccelProperties) target;
    for (String table : p.tables) {
      if (table.isBlank()) {
        errors.rejectValue("tables", "accel.blank", "accel.tables has an empty table name");
      }
    }
    negative(errors, "maxStaleness", "accel.max-staleness", p.maxStaleness);
    negative(errors, "readYourWritesTimeout", "accel.read-your-writes-timeout", p.readYourWritesTimeout);
    objectName(errors, "slotName", "accel.slot-name", p.slotName);
    objectName(errors, "publicationName", "accel.publication-name", p.publicationName);
    if (p.blockCacheSize != null && p.blockCacheSize.toBytes() <= 0) {
      errors.rejectValue("blockCacheSize", "accel.range", "accel.block-cache-size must be more than 0 bytes");
    }
    if (p.rowCacheSize != null && p.rowCacheSize.isNegative()) {
      errors.rejectValue("rowCacheSize", "accel.range", "accel.row-cache-size must be 0 (none) or more");
    }
    if (p.resultCacheSize != null && p.resultCacheSize.isNegative()) {
      errors.rejectValue("resultCacheSize", "accel.range", "accel.result-cache-size must be 0 (none) or more");
    }
    if (p.planCacheSize != null && p.planCacheSize < 0) {
      errors.rejectValue("planCacheSize", "accel.range", "accel.plan-cache-size must be 0 or more");
    }
    if (p.cursorCacheSize != null && p.cursorCacheSize < 0) {
      errors.rejectValue("cursorCacheSize", "accel.range", "accel.cursor-cache-size must be 0 or more");
    }
  }

  private static void negative(Errors errors, String field, String property, Duration d) {
    if (d != null && d.isNegative()) {
      errors.rejectValue(field, "accel.range", property + " must not be negative");
    }
  }

  private static void objectName(Errors errors, String field, String property, String name) {
    if (name != null && !name.matches("[a-z0-9_]{1,63}")) {
      errors.rejectValue(field, "accel.name", property + " \"" + name
          + "\" must be lower-case letters, digits and underscores, at most 63");
    }
  }

  public List<String> getTables() {
    return tables;
  }

  public void setTables(List<String> tables) {
    this.tables = tables;
  }

  public Consistency getConsistency() {
    return consistency;
  }

  public void setConsistency(Consistency consistency) {
    this.consistency = consistency;
  }

  public Duration getMaxStaleness() {
    return maxStaleness;
  }

  public void setMaxStaleness(Duration maxStaleness) {
    this.maxStaleness = maxStaleness;
  }

  public Duration getReadYourWritesTimeout() {
    return readYourWritesTimeout;
  }

  public void setReadYourWritesTimeout(Duration readYourWritesTimeout) {
    this.readYourWritesTimeout = readYourWritesTimeout;
  }

  public Path getMirrorDir() {
    return mirrorDir;
  }

  public void setMirrorDir(Path mirrorDir) {
    this.mirrorDir = mirrorDir;
  }

  public String getSlotName() {
    return slotName;
  }

  public void setSlotName(String slotName) {
    this.slotName = slotName;
  }

  public String getPublicationName() {
    return publicationName;
  }

  public void setPublicationName(String publicationName) {
    this.publicationName = publicationName;
  }

  public Boolean getSyncCommits() {
    return syncCommits;
  }

  public void setSyncCommits(Boolean syncCommits) {
    this.syncCommits = syncCommits;
  }

  public DataSize getBlockCacheSize() {
    return blockCacheSize;
  }

  public void setBlockCacheSize(DataSize blockCacheSize) {
    this.blockCacheSize = blockCacheSize;
  }

  public DataSize getResultCacheSize() {
    return resultCacheSize;
  }

  public void setResultCacheSize(DataSize resultCacheSize) {
    this.resultCacheSize = resultCacheSize;
  }

  public Boolean getAutoCache() {
    return autoCache;
  }

  public void setAutoCache(Boolean autoCache) {
    this.autoCache = autoCache;
  }

  public DataSize getRowCacheSize() {
    return rowCacheSize;
  }

  public void setRowCacheSize(DataSize rowCacheSize) {
    this.rowCacheSize = rowCacheSize;
  }

  public Integer getPlanCacheSize() {
    return planCacheSize;
  }

  public void setPlanCacheSize(Integer planCacheSize) {
    this.planCacheSize = planCacheSize;
  }

  public Integer getCursorCacheSize() {
    return cursorCacheSize;
  }

  public void setCursorCacheSize(Integer cursorCacheSize) {
    this.cursorCacheSize = cursorCacheSize;
  }

  public ZoneId getTimeZone() {
    return timeZone;
  }

  public void setTimeZone(ZoneId timeZone) {
    this.timeZone = timeZone;
  }

  public Boolean getIndexScans() {
    return indexScans;
  }

  public void setIndexScans(Boolean indexScans) {
    this.indexScans = indexScans;
  }

  public Boolean getIcp() {
    return icp;
  }

  public void setIcp(Boolean icp) {
    this.icp = icp;
  }

  public Boolean getLookupJoins() {
    return lookupJoins;
  }

  public void setLookupJoins(Boolean lookupJoins) {
    this.lookupJoins = lookupJoins;
  }
}
