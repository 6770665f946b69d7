package dev.canal.parse.mysql;

import dev.canal.binlog.net.MysqlConnection;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Canal's {@code canal.instance.binlog.format} / {@code .image} check: when the allowed
 * lists are set, a source writing another format or row image is refused with a clear error instead of being
 * parsed into entries its clients do not expect.
 */
final class SourceSettingsCheck {

    /** The source's settings are not what the configuration allows; reconnecting will not change that. */
    static final class UnsupportedSourceException extends IOException {
        UnsupportedSourceException(String message) {
            super(message);
        }
    }

    private SourceSettingsCheck() {
    }

    static void verify(MysqlConnection connection, MysqlParserConfig config) throws IOException {
        check(connection, "binlog_format", config.allowedBinlogFormats(), MysqlParserConfig.BINLOG_FORMAT.name());
        check(connection, "binlog_row_image", config.allowedBinlogImages(), MysqlParserConfig.BINLOG_IMAGE.name());
    }

    private static void check(MysqlConnection connection, String variable, Set<String> allowed, String key)
            throws IOException {
        if (allowed.isEmpty()) {
            return;
        }
        String value = connection.query("SELECT @@global." + variable).scalar();
        if (value == null || !allowed.contains(value.toUpperCase(Locale.ROOT))) {
            throw new UnsupportedSourceException("Unsupported " + variable + " " + value + " on "
                    + connection.address() + ": " + key + " allows " + allowed);
        }
    }
}
