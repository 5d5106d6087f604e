package io.accel.storage;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads RocksDB's JNI library from a per-user cache directory, extracting it from the jar only once per library
 * build. {@link RocksDB#loadLibrary()} copies the 17 MB library into a new temporary file at every JVM start
 * (about 150 ms of a fresh JVM's first connection here); this loads the copy extracted by an earlier start.
 *
 * <p>The directory is {@code accel.nativeDir} (a system property) or {@code $XDG_CACHE_HOME/accel/native}
 * ({@code ~/.cache/accel/native}), owner-only; a subdirectory per library build (its jar entry's size and CRC).
 * Anything unusual (no home, no jar entry, another platform's layout, a load that fails) falls back to
 * {@link RocksDB#loadLibrary()}.
 */
final class NativeLibrary {
  private static final Logger log = LoggerFactory.getLogger(NativeLibrary.class);

  private NativeLibrary() {
  }

  static void load() {
    try {
      Path root = root();
      Path dir = root == null ? null : cachedCopy(root);
      if (dir != null) {
        RocksDB.loadLibrary(List.of(dir.toString()));
        return;
      }
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      log.debug("RocksDB's library not loaded from the cache directory, extracting it: {}", e.toString());
    }
    RocksDB.loadLibrary();
  }

  /** The directory holding this build's library under the name {@link RocksDB#loadLibrary(List)} loads, or null. */
  static Path cachedCopy(Path root) throws IOException {
    String entry = Environment.getJniLibraryFileName("rocksdb");
    URL url = RocksDB.class.getClassLoader() == null ? null : RocksDB.class.getClassLoader().getResource(entry);
    if (url == null) {
      return null;
    }
    URLConnection connection = url.openConnection();
    connection.setUseCaches(false);
    if (!(connection instanceof JarURLConnection jar) || jar.getJarEntry() == null || jar.getJarEntry().getCrc() < 0) {
      return null;
    }
    long size = jar.getJarEntry().getSize();
    Path dir = root.resolve(Long.toHexString(jar.getJarEntry().getCrc()) + "-" + size);
    // RocksDB.loadLibrary(paths) loads <path>/<getJniLibraryFileName("rocksdbjni")>
    Path target = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
    if (Files.isRegularFile(target) && Files.size(target) == size) {
      return dir;
    }
    Files.createDirectories(dir);
    Path partial = Files.createTempFile(dir, "extract", ".tmp");
    try (InputStream in = connection.getInputStream()) {
      Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      try {
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(partial);
    }
    return dir;
  }

  /** The cache root, created owner-only where the file system has POSIX permissions; null where there is none. */
  private static Path root() throws IOException {
    String configured = System.getProperty("accel.nativeDir");
    Path root;
    if (configured != null && !configured.isBlank()) {
      root = Path.of(configured);
    } else {
      String xdg = System.getenv("XDG_CACHE_HOME");
      String home = System.getProperty("user.home");
      if (xdg != null && !xdg.isBlank()) {
        root = Path.of(xdg, "accel", "native");
      } else if (home != null && !home.isBlank() && !home.equals("?")) {
        root = Path.of(home, ".cache", "accel", "native");
      } else {
        return null;
      }
    }
    return usable(root) ? root : null;
  }

  /** Creates {@code root} owner-only if missing; false where another user owns it or could write it. */
  static boolean usable(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      Files.createDirectories(root);
      if (Files.getFileStore(root).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
      }
    }
    // never load a library from a directory another user could have written
    if (Files.getFileStore(root).supportsFileAttributeView("posix")) {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(root);
      if (!Files.getOwner(root).getName().equals(System.getProperty("user.name"))
          || permissions.contains(PosixFilePermission.GROUP_WRITE)
          || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
        return false;
      }
    }
    return true;
  }
}
