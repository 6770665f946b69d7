package dev.canal.parse.meta.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One destination's schema history on disk: {@code meta_history.jsonl}, an append-only log of applied DDL (one
 * JSON object per line, synced on every append), and {@code meta_snapshot.jsonl}, the snapshots, rewritten
 * whole through a temporary file and an atomic move when one is added or expired. The field names are the
 * columns of Canal's {@code meta_history} / {@code meta_snapshot} tables.
 *
 * <p>A line cut short by a crash is the only damage an append can leave: it is cut off when the log is opened.
 * Not thread-safe; owned by one {@link SchemaHistoryTableMetaSource}.
 */
public final class JsonLinesHistoryStore implements SchemaHistoryStore {

    private static final Logger log = LoggerFactory.getLogger(JsonLinesHistoryStore.class);
    static final String HISTORY_FILE = "meta_history.jsonl";
    static final String SNAPSHOT_FILE = "meta_snapshot.jsonl";

    private final ObjectMapper json = new ObjectMapper();
    private final Path historyFile;
    private final Path snapshotFile;
    private final List<DdlRecord> history = new ArrayList<>();
    private final Set<String> historyKeys = new HashSet<>();
    private final List<SchemaSnapshot> snapshots = new ArrayList<>();
    private final FileChannel historyLog;
    private final Path dir;

    public JsonLinesHistoryStore(Path dir) {
        this.dir = dir;
        this.historyFile = dir.resolve(HISTORY_FILE);
        this.snapshotFile = dir.resolve(SNAPSHOT_FILE);
        try {
            Files.createDirectories(dir);
            cutTornLastLine();
            for (String line : Files.readAllLines(historyFile, StandardCharsets.UTF_8)) {
                DdlRecord ddl = json.readValue(line, DdlRecord.class);
                history.add(ddl);
                historyKeys.add(ddl.position().key());
            }
            if (Files.exists(snapshotFile)) {
                for (String line : Files.readAllLines(snapshotFile, StandardCharsets.UTF_8)) {
                    snapshots.add(json.readValue(line, SchemaSnapshot.class));
                }
            }
            historyLog = FileChannel.open(historyFile, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the schema history in " + dir, e);
        }
    }

    /** Every DDL recorded, in the order it was applied. */
    @Override
    public List<DdlRecord> history() {
        return Collections.unmodifiableList(history);
    }

    @Override
    public boolean contains(HistoryPosition position) {
        return historyKeys.contains(position.key());
    }

    /** Appends a DDL unless one at the same position is recorded (Canal's duplicate key rule). */
    @Override
    public boolean append(DdlRecord ddl) {
        if (!historyKeys.add(ddl.position().key())) {
            return false;
        }
        try {
            historyLog.write(ByteBuffer.wrap((line(ddl) + "\n").getBytes(StandardCharsets.UTF_8)));
            historyLog.force(false);
        } catch (IOException e) {
            historyKeys.remove(ddl.position().key());
            throw new UncheckedIOException("cannot append the DDL at " + ddl.position() + " to " + historyFile, e);
        }
        history.add(ddl);
        return true;
    }

    /** Every snapshot kept, oldest first. */
    @Override
    public List<SchemaSnapshot> snapshots() {
        return Collections.unmodifiableList(snapshots);
    }

    @Override
    public void addSnapshot(SchemaSnapshot snapshot) {
        List<SchemaSnapshot> next = new ArrayList<>(snapshots);
        next.removeIf(s -> s.position().key().equals(snapshot.position().key()));
        next.add(snapshot);
        rewriteSnapshots(next);
    }

    /** Deletes the snapshots matching {@code expired}; returns how many went. */
    @Override
    public int removeSnapshots(Predicate<SchemaSnapshot> expired) {
        List<SchemaSnapshot> next = new ArrayList<>(snapshots);
        if (!next.removeIf(expired)) {
            return 0;
        }
        int removed = snapshots.size() - next.size();
        rewriteSnapshots(next);
        return removed;
    }

    @Override
    public String describe() {
        return "the files in " + dir;
    }

    @Override
    public void close() {
        try {
            historyLog.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + historyFile, e);
        }
    }

    private void rewriteSnapshots(List<SchemaSnapshot> next) {
        Path tmp = snapshotFile.resolveSibling(SNAPSHOT_FILE + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            StringBuilder text = new StringBuilder();
            for (SchemaSnapshot s : next) {
                text.append(line(s)).append('\n');
            }
            out.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
            out.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the schema snapshots to " + tmp, e);
        }
        try {
            Files.move(tmp, snapshotFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace " + snapshotFile, e);
        }
        snapshots.clear();
        snapshots.addAll(next);
    }

    /** A crash during an append can leave a last line without its newline: drop it so the next append starts a line of its own. */
    private void cutTornLastLine() throws IOException {
        if (!Files.exists(historyFile)) {
            Files.createFile(historyFile);
            return;
        }
        try (FileChannel ch = FileChannel.open(historyFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            long keep = size;
            ByteBuffer one = ByteBuffer.allocate(1);
            while (keep > 0) {
                one.clear();
                ch.read(one, keep - 1);
                if (one.get(0) == '\n') {
                    break;
                }
                keep--;
            }
            if (keep < size) {
                log.warn("schema history {}: dropping a torn last line of {} bytes", historyFile, size - keep);
                ch.truncate(keep);
            }
        }
    }

    private String line(Object row) {
        try {
            return json.writeValueAsString(row);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + row + " as JSON", e);
        }
    }
}
