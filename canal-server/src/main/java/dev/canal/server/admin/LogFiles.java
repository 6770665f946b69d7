package dev.canal.server.admin;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The log files the admin port shows (Canal's layout, conf/logback.xml): the server's in {@code {dir}/canal/},
 * each destination's in {@code {dir}/{destination}/}, the current file named after the folder. Only names of
 * files directly in those folders are accepted, so a request can read nothing else.
 */
public final class LogFiles {

    /** The server's log folder and file name, as Canal's layout has them. */
    public static final String SERVER = "canal";
    /** Lines of a tail when the request gives no count. */
    public static final int DEFAULT_LINES = 100;
    /** A tail never returns more than the last 4 MiB of a file. */
    public static final int MAX_TAIL_BYTES = 4 << 20;
    private static final String SUFFIX = ".log";

    private final Path dir;

    public LogFiles(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** Names of the files in the folder ({@code canal} for the server, else the destination), sorted. */
    public List<String> list(String folder) {
        Path path = folder(folder);
        if (!Files.isDirectory(path)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(path)) {
            return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + path, e);
        }
    }

    /**
     * The last {@code lines} lines of a file of the folder ({@code {folder}.log} when {@code file} is empty);
     * empty when the file does not exist.
     */
    public String tail(String folder, String file, int lines) {
        String name = file == null || file.isBlank() ? folder + SUFFIX : plainName(file, "file");
        Path path = folder(folder).resolve(name);
        if (!Files.isRegularFile(path)) {
            return "";
        }
        int wanted = lines > 0 ? lines : DEFAULT_LINES;
        try (RandomAccessFile in = new RandomAccessFile(path.toFile(), "r")) {
            long length = in.length();
            int size = (int) Math.min(length, MAX_TAIL_BYTES);
            byte[] bytes = new byte[size];
            in.seek(length - size);
            in.readFully(bytes);
            return lastLines(new String(bytes, StandardCharsets.UTF_8), wanted);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** The text from the start of its last {@code lines} lines; all of it when it has fewer. */
    private static String lastLines(String text, int lines) {
        int start = text.endsWith("\n") ? text.length() - 1 : text.length();
        for (int i = 0; i < lines; i++) {
            int newline = text.lastIndexOf('\n', start - 1);
            if (newline < 0) {
                return text;
            }
            start = newline;
        }
        return text.substring(start + 1);
    }

    private Path folder(String folder) {
        return dir.resolve(plainName(folder, "destination"));
    }

    /** @throws IllegalArgumentException when the name could leave its folder */
    private static String plainName(String name, String what) {
        if (name == null || name.isBlank() || name.contains("/") || name.contains("\\") || name.equals("..")
                || name.equals(".")) {
            throw new IllegalArgumentException("invalid " + what + " name '" + name + "'");
        }
        return name;
    }
}
