package dev.canal.parse.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The progress in {@code {canal.file.data.dir}/{destination}/snapshot.properties}, beside the file mode's
 * meta.dat, written whole to a temporary file and moved over the old one so a crash leaves one or the other.
 */
public final class FileSnapshotProgressStore implements SnapshotProgressStore {

    public static final String FILE_NAME = "snapshot.properties";

    private final Path file;

    public FileSnapshotProgressStore(Path dataDir, String destination) {
        this.file = dataDir.resolve(destination).resolve(FILE_NAME);
    }

    @Override
    public String load() {
        try {
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the snapshot progress " + file, e);
        }
    }

    @Override
    public void save(String progress) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
            Files.writeString(tmp, progress, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the snapshot progress " + file, e);
        }
    }
}
