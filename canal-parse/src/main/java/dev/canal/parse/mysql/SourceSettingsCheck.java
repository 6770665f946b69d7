package dev.canal.parse.mysql;

import dev.canal.binlog.net.MysqlConnection;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * What the source must be set to for a change stream: binary logging on and not in {@code STATEMENT} format (a
 * statement-logged change has no rows to deliver; {@code MIXED} delivers the rows logged as rows), and Canal's
 * {@code canal.instance.binlog.format} / {@code .image} lists, when set. A source that is not is refused with the
 * setting to change, instead of being parsed into entries its clients do not expect.
 */
final class SourceSettingsCheck {

    /** The source's settings are not what the configuration allows; reconnecting will not change that. */
    static final class UnsupportedSourceException extends IOException {

        private final String remedy;

        UnsupportedSourceException(String message, String remedy) {
            super(message);
            this.remedy = remedy;
        }

        /** The setting to change. */
        String remedy() {
            return remedy;
        }
    }

    private SourceSettingsCheck() {
    }

    static void verify(MysqlConnection connection, MysqlParserConfig config) throws IOException {
        if (!"1".equals(connection.query("SELECT @@global.log_bin").scalar())) {
            throw new UnsupportedSourceException("binary logging is off on " + connection.address(),
                    "start the source with log_bin (and binlog_format=ROW)");
        }
        String format = connection.query("SELECT @@global.binlog_format").scalar();
        if ("STATEMENT".equalsIgnoreCase(format)) {
            throw new UnsupportedSourceException("binlog_format is STATEMENT on " + connection.address()
                    + ": its changes carry no rows", "SET GLOBAL binlog_format = 'ROW' on the source, and in its "
                    + "configuration file");
        }
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
                    + connection.address() + ": " + key + " allows " + allowed, "set the source's " + variable
                    + " to one of " + allowed + ", or widen " + key);
        }
    }
}
