package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema history of a big schema fits bin/startup.sh's default heap (384 MiB): {@link SchemaHistoryFootprint}
 * runs in a JVM of that heap and reports the bytes it retains per column (docs/performance.md, "Schema model").
 * The build checks the schema of most tables; {@code -Dschema.footprint=1000x200,10000x50} measures both shapes.
 */
class SchemaHistoryFootprintTest {

    /** bin/startup.sh's default heap. */
    private static final String DEFAULT_HEAP = "-Xmx384m";

    static Stream<Arguments> schemas() {
        return Arrays.stream(System.getProperty("schema.footprint", "10000x50").split(","))
                .map(shape -> shape.trim().split("x"))
                .map(shape -> Arguments.of(Integer.parseInt(shape[0]), Integer.parseInt(shape[1])));
    }

    @ParameterizedTest(name = "{0} tables of {1} columns")
    @MethodSource("schemas")
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
