package dev.canal.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per scenario run in a Markdown table (target/reliability-results.md, new for each test JVM), the source of the table in
 * docs/reliability.md; the same line goes to the test log.
 */
final class ResultsTable {

    private static final Logger log = LoggerFactory.getLogger(ResultsTable.class);
    private static final String HEADER = """
            | scenario | trials | rows written | rows received | lost | duplicated | recovery time (ms) |
            | --- | --- | --- | --- | --- | --- | --- |
            """;

    private static boolean started; // guarded by the class lock: the first line of this JVM starts a new file

    private ResultsTable() {
    }

    /** Trials to run per scenario: {@code -Dreliability.trials=N}, one by default. */
    static int trials() {
        return Integer.getInteger("reliability.trials", 1);
    }

    static synchronized void record(String scenario, int trials, DeliveryCheck check, List<Long> recoveryMillis) {
        String recovery = recoveryMillis.isEmpty() ? "n/a" : recoveryMillis.stream().map(String::valueOf)
                .collect(Collectors.joining(", "));
        String line = "| %s | %d | %d | %d | %d | %d | %s |%n".formatted(scenario, trials, check.written(),
                check.received(), check.lost(), check.duplicated(), recovery);
        log.info("RESULT {}", line.trim());
        Path file = Path.of(System.getProperty("reliability.results", "target/reliability-results.md"));
        try {
            if (!started || !Files.exists(file)) {
                started = true;
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.writeString(file, HEADER);
            }
            Files.writeString(file, line, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results to " + file, e);
        }
    }
}
