package dev.canal.binlog.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.canal.binlog.file.BinlogCorpus;
import dev.canal.binlog.io.MalformedDataException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Feeds truncated and corrupted events to the decoders: each must decode or fail with a decoding exception
 * ({@link MalformedDataException}, {@link UnsupportedBinlogException}) with a message, never another exception,
 * a hang or an OutOfMemoryError. Events come from the corpus when present (else from hand-built bytes), the
 * seed is printed (rerun with {@code -Dfuzz.seed=N}), and the run is bounded to a few seconds.
 */
class CorruptEventFuzzTest {

    /** Longer runs: {@code -Dfuzz.seconds=60 -Dfuzz.iterations=10000000}. */
    private static final Duration BUDGET = Duration.ofSeconds(Long.getLong("fuzz.seconds", 3));
    private static final int MAX_ITERATIONS = Integer.getInteger("fuzz.iterations", 100_000);
    private static final List<String> CORPUS_FILES = List.of(
            "generated-mysql-9.7.4-debian-sid/mysql97-bin.000001", "generated-mysql-9.7.4-debian-sid/mysql97-bin.000002",
            "generated-mysql-9.7.4-debian-sid/mysql97-bin.000003", "generated-mysql-9.7.4-debian-sid/mysql97-bin.000004",
            "generated-mysql-9.7.4-debian-sid/mysql97-bin.000005", "generated-mysql-5.5.9-mxj/mysql-bin.000001",
            "rust_mysql_common/mariadb-bin.000001", "rust_mysql_common/json.binlog.000001",
            "rust_mysql_common/json-opaque.binlog", "rust_mysql_common/vector.binlog",
            "rust_mysql_common/binlog_transaction_with_GTID_TAG.000001", "zalora-binlog-parser/fixtures/mysql-bin.07",
            "mariadb-test-data-10.11.19/std_data/mdev29078-mysql-bin.000001", "go-mysql/tcb-eval002c-bin.003320",
            "MySqlCdc/mysql-bin.000001", "mysql-binlog-connector-java/mysql-bin.compressed",
            "mariadb-test-data-10.11.19/std_data/rpl/master-bin-seq_10.3.36.000001");

    /** The events of one file and, per event, the TABLE_MAP a rows event needs. */
    private record Stream(String name, List<byte[]> events, Map<Integer, Integer> tableMapOf) {
    }

    @Test
    void corruptedEventsFailWithADecodingErrorAndNothingElse() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("CorruptEventFuzzTest seed=" + seed + " (rerun with -Dfuzz.seed=" + seed + ")");
        List<Stream> streams = streams();
        assertTimeoutPreemptively(BUDGET.plusSeconds(60), () -> {
            Random random = new Random(seed);
            long deadline = System.nanoTime() + BUDGET.toNanos();
            int failures = 0;
            int iterations = 0;
            while (iterations < MAX_ITERATIONS && System.nanoTime() < deadline) {
                iterations++;
                Stream s = streams.get(random.nextInt(streams.size()));
                int target = random.nextInt(s.events().size());
                byte[] original = s.events().get(target);
                StringBuilder how = new StringBuilder();
                byte[] corrupt = mutate(original, random, how);
                try {
                    decode(s, target, corrupt);
                } catch (MalformedDataException | UnsupportedBinlogException e) {
                    assertThat(e.getMessage()).as("message of %s", e).isNotBlank();
                    failures++;
                } catch (Throwable t) {
                    fail("seed " + seed + ": " + s.name() + " event #" + target + " (" + how + ") threw " + t, t);
                }
            }
            System.out.println("CorruptEventFuzzTest: " + iterations + " corrupted events, " + failures
                    + " rejected with a decoding error, the rest decoded");
            assertThat(iterations).isGreaterThan(100);
        });
    }

    private static void decode(Stream s, int target, byte[] corrupt) {
        DecoderContext context = new DecoderContext();
        if (target != 0) {
            context.decode(s.events().get(0));
        }
        Integer mapIndex = s.tableMapOf().get(target);
        if (mapIndex != null && mapIndex != target) {
            context.decode(s.events().get(mapIndex));
        }
        BinlogEvent event = context.decode(corrupt);
        List<BinlogEvent> all = new ArrayList<>(List.of(event));
        if (event instanceof TransactionPayloadEvent payload) {
            all.addAll(payload.events());
        }
        if (event instanceof TableMapEvent && target + 1 < s.events().size()) {
            // a corrupt table map must not break the decoding of the rows that use it either
            all.add(context.decode(s.events().get(target + 1)));
        }
        for (BinlogEvent e : all) {
            if (e instanceof RowsEvent rows && context.tableMap(rows.tableId()) != null) {
                RowsDecoder.decode(rows, context.tableMap(rows.tableId()));
            }
        }
    }

    private static byte[] mutate(byte[] original, Random random, StringBuilder how) {
        byte[] e = original.clone();
        int body = Math.max(EventHeader.V4_LENGTH, Math.min(e.length - 1, EventHeader.V4_LENGTH));
        switch (random.nextInt(5)) {
            case 0 -> {
                int cut = body + random.nextInt(Math.max(1, e.length - body));
                e = Arrays.copyOf(e, cut);
                setLength(e);
                how.append("truncated to ").append(cut);
            }
            case 1 -> {
                int n = 1 + random.nextInt(4);
                for (int i = 0; i < n && e.length > body; i++) {
                    int at = body + random.nextInt(e.length - body);
                    e[at] ^= (byte) (1 + random.nextInt(255));
                    how.append("flipped ").append(at).append(' ');
                }
            }
            case 2 -> {
                int at = body + random.nextInt(Math.max(1, e.length - body));
                int run = 1 + random.nextInt(8);
                byte fill = random.nextBoolean() ? (byte) 0xFF : 0;
                for (int i = at; i < Math.min(e.length, at + run); i++) {
                    e[i] = fill;
                }
                how.append("filled ").append(run).append(" bytes at ").append(at).append(" with ").append(fill);
            }
            case 3 -> {
                int at = random.nextInt(e.length);
                e[at] = (byte) random.nextInt(256);
                how.append("set byte ").append(at).append(" (header included)");
            }
            default -> {
                int at = body + random.nextInt(Math.max(1, e.length - body));
                e = Arrays.copyOf(e, at);
                how.append("truncated to ").append(at).append(" keeping the header's length");
            }
        }
        return e;
    }

    private static void setLength(byte[] e) {
        for (int i = 0; i < 4; i++) {
            e[9 + i] = (byte) (e.length >>> (8 * i));
        }
    }

    private static List<Stream> streams() {
        List<Stream> streams = new ArrayList<>();
        streams.add(stream("hand-built MySQL 8 stream", TestEvents.sampleStream()));
        Optional<Path> corpus = BinlogCorpus.find();
        if (corpus.isEmpty()) {
            System.out.println("CorruptEventFuzzTest: binlog corpus absent, fuzzing hand-built events only");
            return streams;
        }
        for (String f : CORPUS_FILES) {
            Path file = corpus.get().resolve(f);
            if (Files.isRegularFile(file)) {
                streams.add(stream(f, split(file)));
            }
        }
        return streams;
    }

    private static Stream stream(String name, List<byte[]> events) {
        Map<Integer, Integer> tableMapOf = new HashMap<>();
        Map<Long, Integer> lastMap = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            byte[] e = events.get(i);
            int type = e[4] & 0xFF;
            long tableId = e.length >= 25 ? new dev.canal.binlog.io.LittleEndianCursor(e, 19, 6).uint48() : -1;
            if (type == EventType.TABLE_MAP) {
                lastMap.put(tableId, i);
            } else if (lastMap.containsKey(tableId)) {
                tableMapOf.put(i, lastMap.get(tableId));
            }
        }
        return new Stream(name, events, tableMapOf);
    }

    /** The raw events of a binlog file, split by the lengths in their headers. */
    private static List<byte[]> split(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] all = file.toString().endsWith(".gz") ? new GZIPInputStream(in).readAllBytes() : in.readAllBytes();
            List<byte[]> events = new ArrayList<>();
            int pos = 4;
            while (pos + EventHeader.V4_LENGTH <= all.length) {
                int length = (int) new dev.canal.binlog.io.LittleEndianCursor(all, pos + 9, 4).uint32();
                if (length < EventHeader.V4_LENGTH || pos + length > all.length) {
                    break;
                }
                events.add(Arrays.copyOfRange(all, pos, pos + length));
                pos += length;
            }
            return events;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
