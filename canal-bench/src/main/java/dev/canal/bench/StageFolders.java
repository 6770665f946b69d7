package dev.canal.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The folders a stage JVM writes into. Its parser's schema history goes to a fresh temporary folder, removed when
 * the JVM ends: left to its default ({@code ../conf}, meant for {@code bin/}), it would land beside the working
 * directory and be read again by the next run, whose database is another.
 */
final class StageFolders {

    private static Path schemaHistory;

    private StageFolders() {
    }

    static synchronized Path schemaHistory() {
        if (schemaHistory == null) {
            try {
                schemaHistory = Files.createTempDirectory("canal-bench-history");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path folder = schemaHistory;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(folder), "bench-history-cleanup"));
        }
        return schemaHistory;
    }

    private static void delete(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
