package dev.canal.binlog.file;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.RowChange;
import dev.canal.binlog.event.RowsDecoder;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.binlog.event.TransactionPayloadEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared binlog corpus ({@code ../shared/corpus/binlog}, found by walking up from the working directory, or
 * named by {@code -Dcanal.corpus.dir}); tests using it are skipped, saying so, where it is absent.
 */
public final class BinlogCorpus {

    static final String PROPERTY = "canal.corpus.dir";
    private static final Pattern MANIFEST_ROW = Pattern.compile("^\\| ([^|]+?) \\| (\\d+) \\| [0-9a-f]{16} \\|");

    private BinlogCorpus() {
    }

    public static Optional<Path> find() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path dir = Path.of(configured);
            return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared/corpus/binlog");
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The corpus directory, or the test is skipped with a message saying why. */
    public static Path require() {
        Optional<Path> dir = find();
        assumeTrue(dir.isPresent(), "binlog corpus not found (no shared/corpus/binlog above "
                + Path.of("").toAbsolutePath() + " and no -D" + PROPERTY + "): corpus tests skipped");
        return dir.get();
    }

    /** Every binlog file the MANIFEST's per-file table lists, relative to the corpus directory. */
    public static List<String> manifestFiles(Path corpus) {
        try {
            List<String> files = new ArrayList<>();
            for (String line : Files.readAllLines(corpus.resolve("MANIFEST.md"))) {
                Matcher m = MANIFEST_ROW.matcher(line);
                if (m.find()) {
                    files.add(m.group(1).trim());
                }
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One rows event of a file with its table map and decoded rows. */
    public record DecodedRows(String table, TableMapEvent tableMap, RowsEvent event, List<RowChange> rows) {
    }

    /** Every event of a file, payload events flattened in place after their payload. */
    public static List<BinlogEvent> events(Path file) throws IOException {
        List<BinlogEvent> events = new ArrayList<>();
        try (BinlogFileReader reader = BinlogFileReader.open(file)) {
            BinlogEvent e;
            while ((e = reader.next()) != null) {
                events.add(e);
                if (e instanceof TransactionPayloadEvent p) {
                    events.addAll(p.events());
                }
            }
        }
        return events;
    }

    /** Every rows event of a file, decoded against the table map in force at its place. */
    public static List<DecodedRows> rows(Path file) throws IOException {
        Map<Long, TableMapEvent> maps = new HashMap<>();
        List<DecodedRows> out = new ArrayList<>();
        for (BinlogEvent e : events(file)) {
            if (e instanceof TableMapEvent t) {
                maps.put(t.tableId(), t);
            } else if (e instanceof RowsEvent r && maps.containsKey(r.tableId())) {
                TableMapEvent t = maps.get(r.tableId());
                out.add(new DecodedRows(t.qualifiedName(), t, r, RowsDecoder.decode(r, t)));
            }
        }
        return out;
    }
}
