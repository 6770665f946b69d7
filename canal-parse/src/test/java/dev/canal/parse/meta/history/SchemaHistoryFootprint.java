package dev.canal.parse.meta.history;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * Builds the schema history of a big schema and prints what it retains per column: {@code tables} tables of
 * {@code columns} columns in one schema, as the source's SHOW CREATE TABLE prints them (a BIGINT key, then INT and
 * VARCHAR(16) columns in turn), taken as the initial snapshot, restored into the model and every table's definition
 * looked up once, as streaming rows of every table does. Retained = heap used after a full GC, minus the same before.
 *
 * <p>Run in a JVM with the heap under test ({@link SchemaHistoryFootprintTest}); prints one line
 * {@code tables=.. columns=.. retainedBytes=.. bytesPerColumn=.. seconds=..}.
 */
public final class SchemaHistoryFootprint {

    private static final String SCHEMA = "wide";

    private SchemaHistoryFootprint() {
    }

    public static void main(String[] args) throws IOException {
        int tables = Integer.parseInt(args[0]);
        int columns = Integer.parseInt(args[1]);
        Path dir = Files.createTempDirectory("schema-footprint");
        long before = settledHeapBytes();
        long start = System.nanoTime();
        SchemaHistoryTableMetaSource history = new SchemaHistoryTableMetaSource("footprint",
                new TsdbConfig(true, dir, 24, 360), new GeneratedSchema(tables, columns), (s, t) -> true,
                Clock.systemUTC());
        history.prepare();
        long found = 0;
        for (int t = 0; t < tables; t++) {
            found += history.find(SCHEMA, GeneratedSchema.table(t)).columnCount();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long retained = settledHeapBytes() - before;
        if (found != (long) tables * columns) {
            throw new IllegalStateException("found " + found + " columns, expected " + (long) tables * columns);
        }
        System.out.printf("tables=%d columns=%d retainedBytes=%d bytesPerColumn=%d seconds=%.1f%n", tables,
                found, retained, retained / found, seconds);
        history.close();
        Reference.keep(history);
    }

    private static long settledHeapBytes() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** Keeps an object reachable up to this point, so the measurement sees it held. */
    private static final class Reference {
        static volatile Object held;

        static void keep(Object o) {
            held = o;
        }
    }

    /** The source's definitions, written out only when the history asks for them. */
    private record GeneratedSchema(int tables, int columns) implements DefinitionSource {

        static String table(int t) {
            return String.format("w%05d", t);
        }

        @Override
        public Map<String, String> allDefinitions(BiPredicate<String, String> tableFilter) {
            StringBuilder text = new StringBuilder("CREATE DATABASE IF NOT EXISTS `" + SCHEMA
                    + "` DEFAULT CHARACTER SET utf8mb4;\n");
            for (int t = 0; t < tables; t++) {
                text.append(createTable(t)).append(";\n");
            }
            return new TreeMap<>(Map.of(SCHEMA, text.toString()));
        }

        private String createTable(int t) {
            StringBuilder sql = new StringBuilder("CREATE TABLE `").append(table(t)).append("` (\n")
                    .append("  `id` bigint NOT NULL,\n");
            for (int c = 1; c < columns; c++) {
                sql.append("  `c").append(c).append(c % 2 == 1 ? "` int DEFAULT NULL,\n" : "` varchar(16) DEFAULT NULL,\n");
            }
            return sql.append("  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci")
                    .toString();
        }

        @Override
        public Optional<String> showCreateTable(String schema, String table) {
            return Optional.of(createTable(Integer.parseInt(table.substring(1))));
        }

        @Override
        public dev.canal.parse.meta.TableMeta columns(String schema, String table) {
            throw new UnsupportedOperationException("every generated definition is readable");
        }
    }
}
