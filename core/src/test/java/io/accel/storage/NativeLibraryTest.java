package io.accel.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.util.Environment;

class NativeLibraryTest {
  @TempDir
  Path temp;

  @Test
  void extractsTheLibraryOnceAndReusesTheCopy() throws Exception {
    Path root = temp.resolve("native");
    assertThat(NativeLibrary.usable(root)).isTrue();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root))).isEqualTo("rwx------");

    Path dir = NativeLibrary.cachedCopy(root);
    Path library = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
    long size = Files.size(library);
    assertThat(size).isGreaterThan(1_000_000);
    try (var listing = Files.list(dir)) {
      assertThat(listing).containsExactly(library); // no partial file left behind
    }

    FileTime before = FileTime.fromMillis(1_000_000_000L);
    Files.setLastModifiedTime(library, before);
    assertThat(NativeLibrary.cachedCopy(root)).isEqualTo(dir);
    assertThat(Files.getLastModifiedTime(library)).isEqualTo(before);

    // a truncated copy (a start killed mid-extraction before the atomic move existed) is replaced
    Files.write(library, new byte[10]);
    assertThat(NativeLibrary.cachedCopy(root)).isEqualTo(dir);
    assertThat(Files.size(library)).isEqualTo(size);
  }

  @Test
  void refusesADirectoryOthersCanWrite() throws Exception {
    Path root = Files.createDirectory(temp.resolve("shared"));
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(NativeLibrary.usable(root)).isFalse();
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThat(NativeLibrary.usable(root)).isTrue();
  }
}
