package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The schema history of a big schema fits bin/startup.sh's default heap (384 MiB): {@link SchemaHistoryFootprint}
 * runs in a JVM of that heap and reports the bytes it retains per column (docs/performance.md, "Schema model").
 */
class SchemaHistoryFootprintTest {

    /** bin/startup.sh's default heap. */
    private static final String DEFAULT_HEAP = "-Xmx384m";

    @ParameterizedTest(name = "{0} tables of {1} columns")
    @CsvSource({"1000, 200", "10000, 50"})
    void aBigSchemasHistoryFitsTheDefaultHeap(int tables, int columns) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(List.of(java, DEFAULT_HEAP, "-XX:+UseParallelGC", "-cp",
                System.getProperty("java.class.path"), SchemaHistoryFootprint.class.getName(),
                String.valueOf(tables), String.valueOf(columns)))
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(10, TimeUnit.MINUTES)).isTrue();
        System.out.println(output.lines().filter(l -> l.startsWith("tables=")).findFirst().orElse(""));
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("columns=" + tables * columns);
    }
}
