package dev.canal.meta;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes one destination's {@code meta.dat}. A write goes to a temporary file in the same
 * directory, is forced to disk and then renamed over the old file, so a crash at any moment leaves
 * either the previous or the new complete content, never a torn file.
 */
final class MetaFile {

    static final String FILE_NAME = "meta.dat";
    static final String TEMP_FILE_NAME = FILE_NAME + ".tmp";

    private static final Logger log = LoggerFactory.getLogger(MetaFile.class);

    private MetaFile() {
    }

    static Path of(Path dataDir, String destination) {
        return dataDir.resolve(destination).resolve(FILE_NAME);
    }

    /**
     * @throws MetaManagerException naming the file and what is wrong with it (unreadable, empty, not
     *     UTF-8, malformed JSON, or written for another destination)
     */
    static DestinationMeta read(Path file, String expectedDestination) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new MetaManagerException("cannot read meta file " + file + ": " + e, e);
        }
        try {
            DestinationMeta meta = MetaJson.readDestinationMeta(decodeUtf8(bytes));
            if (!meta.destination().equals(expectedDestination)) {
                throw new MetaManagerException("it belongs to destination '" + meta.destination()
                        + "', not '" + expectedDestination + "' (copied from another instance directory?)");
            }
            return meta;
        } catch (MetaManagerException e) {
            throw new MetaManagerException("invalid meta file " + file + " (" + bytes.length + " bytes): "
                    + e.getMessage() + "; fix or remove it, it is not reset automatically", e);
        }
    }

    /** @throws MetaManagerException naming the file when it cannot be written */
    static void write(Path file, DestinationMeta meta) {
        Path dir = file.getParent();
        Path temp = dir.resolve(TEMP_FILE_NAME);
        try {
            Files.createDirectories(dir);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer content = ByteBuffer.wrap(MetaJson.toJson(meta).getBytes(StandardCharsets.UTF_8));
                while (content.hasRemaining()) {
                    channel.write(content);
                }
                channel.force(true);
            }
            moveAtomically(temp, file);
            syncDirectory(dir);
        } catch (IOException e) {
            throw new MetaManagerException("cannot write meta file " + file + ": " + e, e);
        }
    }

    private static void moveAtomically(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + to + " cannot rename atomically", e);
        }
    }

    /** Makes the rename itself durable; some platforms (Windows) cannot open a directory for this. */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            log.debug("cannot sync directory {} on this platform: {}", dir, e.toString());
        }
    }

    private static String decodeUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new MetaManagerException("not UTF-8 text: " + e, e);
        }
    }
}
