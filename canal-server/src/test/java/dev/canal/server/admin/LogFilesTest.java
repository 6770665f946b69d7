package dev.canal.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFilesTest {

    @TempDir
    Path dir;

    private LogFiles logs;

    @BeforeEach
    void files() throws Exception {
        Files.createDirectories(dir.resolve("canal").resolve("2026-12-01"));
        Files.writeString(dir.resolve("canal").resolve("canal.log"), "one\ntwo\nthree\n");
        Files.writeString(dir.resolve("canal").resolve("gc.log"), "no newline at the end");
        Files.writeString(dir.resolve("secret.txt"), "outside every log folder\n");
        logs = new LogFiles(dir);
    }

    @Test
    void listNamesTheFilesOfTheFolderSortedWithoutSubfolders() {
        assertThat(logs.list("canal")).containsExactly("canal.log", "gc.log");
        assertThat(logs.list("nowhere")).isEmpty();
    }

    @Test
    void tailReturnsTheLastLinesOfTheFolderLogByDefault() {
        assertThat(logs.tail("canal", "", 2)).isEqualTo("two\nthree\n");
        assertThat(logs.tail("canal", null, 10)).isEqualTo("one\ntwo\nthree\n");
        assertThat(logs.tail("canal", "gc.log", 1)).isEqualTo("no newline at the end");
        assertThat(logs.tail("canal", "missing.log", 1)).isEmpty();
    }

    @Test
    void aTailNeverReturnsMoreThanTheLast4MiB() throws Exception {
        String line = "x".repeat(1023) + "\n";
        Files.writeString(dir.resolve("canal").resolve("big.log"), line.repeat(5 * 1024));

        String tail = logs.tail("canal", "big.log", 1_000_000);

        assertThat(tail.length()).isLessThanOrEqualTo(LogFiles.MAX_TAIL_BYTES);
        assertThat(tail).endsWith(line);
    }

    @Test
    void namesThatCouldLeaveTheirFolderAreRefused() {
        assertThatThrownBy(() -> logs.tail("canal", "../secret.txt", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid file name");
        assertThatThrownBy(() -> logs.tail("..", "secret.txt", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> logs.list("a/../..")).isInstanceOf(IllegalArgumentException.class);
    }
}
