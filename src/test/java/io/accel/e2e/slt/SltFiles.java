package io.accel.e2e.slt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Finds the {@code *.test} scripts under the {@code slt} test resources (src/test/resources/slt). The
 * system property {@code slt.files} (comma-separated substrings of file names) narrows the set, e.g.
 * {@code -Dslt.files=joins,types}.
 */
public final class SltFiles {
  private SltFiles() {
  }

  public static List<Path> discover() {
    Path root = root();
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".test")).forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String filter = System.getProperty("slt.files", "").strip();
    if (!filter.isEmpty()) {
      List<String> parts = Arrays.stream(filter.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
      files.removeIf(p -> parts.stream().noneMatch(part -> displayName(p).contains(part)));
    }
    files.sort((a, b) -> displayName(a).compareTo(displayName(b)));
    return files;
  }

  /** The directory holding the scripts: the copy on the test class path, else the source folder. */
  public static Path root() {
    URL url = SltFiles.class.getClassLoader().getResource("slt");
    if (url != null && url.getProtocol().equals("file")) {
      try {
        return Paths.get(url.toURI());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    for (Path candidate : List.of(Paths.get("resources/slt"), Paths.get("src/test/resources/slt"))) {
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("no slt/ directory on the test class path nor in resources/slt");
  }

  /** {@code slt/joins.test}: the path used in {@code file:line} positions. */
  public static String displayName(Path file) {
    Path root = root();
    Path rel = file.startsWith(root) ? root.relativize(file) : file.getFileName();
    return "slt/" + rel.toString().replace('\\', '/');
  }

  public static SltScript load(Path file) {
    try {
      return SltParser.parse(displayName(file), Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A lower-case identifier fragment made from the file name ({@code select_basic} for select_basic.test). */
  public static String identifier(Path file) {
    String base = file.getFileName().toString().replaceFirst("\\.test$", "").toLowerCase(Locale.ROOT);
    String id = base.replaceAll("[^a-z0-9_]", "_");
    return id.length() > 30 ? id.substring(0, 30) : id;
  }
}
