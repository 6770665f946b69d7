package dev.canal.binlog.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.canal.binlog.file.BinlogCorpus;
import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.event.TestEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole binlog files corrupted at random (seeded, printed; {@code -Dfuzz.seed=N} reruns one) go through
 * binlog-dump: it either decodes them or exits 1 naming the file and an offset, and nothing else.
 */
class BinlogDumpCorruptFileFuzzTest {

    private static final Duration BUDGET = Duration.ofSeconds(Long.getLong("fuzz.seconds", 3));

    @Test
    void corruptFilesDecodeOrFailNamingFileAndOffset(@TempDir Path dir) throws IOException {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("BinlogDumpCorruptFileFuzzTest seed=" + seed + " (rerun with -Dfuzz.seed=" + seed + ")");
        List<byte[]> originals = originals();
        Path file = dir.resolve("fuzzed-bin.000001");
        assertTimeoutPreemptively(BUDGET.plusSeconds(60), () -> {
            Random random = new Random(seed);
            long deadline = System.nanoTime() + BUDGET.toNanos();
            int runs = 0;
            int failed = 0;
            while (System.nanoTime() < deadline) {
                byte[] original = originals.get(random.nextInt(originals.size()));
                byte[] corrupt = random.nextInt(4) == 0
                        ? Arrays.copyOf(original, 4 + random.nextInt(original.length - 4))
                        : flip(original, random);
                Files.write(file, corrupt);
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int status;
                try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                    status = BinlogDump.run(new String[] {"--format", "json", file.toString()}, Writer.nullWriter(),
                            errStream);
                }
                String message = err.toString(StandardCharsets.UTF_8);
                assertThat(status).as("seed %d run %d: %s", seed, runs, message).isIn(0, 1);
                if (status == 1) {
                    assertThat(message).as("seed %d run %d", seed, runs).startsWith("binlog-dump: " + file + " at offset ");
                    failed++;
                }
                runs++;
            }
            System.out.println("BinlogDumpCorruptFileFuzzTest: " + runs + " corrupted files, " + failed
                    + " stopped with a named file and offset");
            assertThat(runs).isPositive();
        });
    }

    private static byte[] flip(byte[] original, Random random) {
        byte[] b = original.clone();
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            b[4 + random.nextInt(b.length - 4)] ^= (byte) (1 + random.nextInt(255));
        }
        return b;
    }

    private static List<byte[]> originals() throws IOException {
        List<byte[]> files = new ArrayList<>();
        Bytes sample = new Bytes().bytes(0xFE, 'b', 'i', 'n');
        TestEvents.sampleStream().forEach(sample::bytes);
        files.add(sample.toArray());
        Optional<Path> corpus = BinlogCorpus.find();
        if (corpus.isEmpty()) {
            System.out.println("BinlogDumpCorruptFileFuzzTest: binlog corpus absent, fuzzing a hand-built file only");
            return files;
        }
        // files without checksums, so that corruption reaches the event decoders instead of failing the CRC
        for (String f : List.of("generated-mysql-9.7.4-debian-sid/mysql97-bin.000007",
                "mysql-binlog-connector-java/mysql-bin.checksum-none", "zalora-binlog-parser/fixtures/mysql-bin.07",
                "mariadb-test-data-10.11.19/std_data/mariadb-5.5-binlog.000001")) {
            Path p = corpus.get().resolve(f);
            if (Files.isRegularFile(p)) {
                files.add(Files.readAllBytes(p));
            }
        }
        return files;
    }
}
