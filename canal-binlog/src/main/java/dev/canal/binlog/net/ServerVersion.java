package dev.canal.binlog.net;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's product and version, from the handshake's version string. MariaDB announces itself to old clients
 * as {@code 5.5.5-10.11.6-MariaDB-...}; the real version follows that prefix.
 */
public record ServerVersion(Flavor flavor, int major, int minor, int patch, String text) {

    public enum Flavor { MYSQL, MARIADB }

    private static final String MARIADB_COMPAT_PREFIX = "5.5.5-";
    private static final Pattern NUMBERS = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    public static ServerVersion parse(String text) {
        boolean mariadb = text.toLowerCase(Locale.ROOT).contains("mariadb");
        String numbers = mariadb && text.startsWith(MARIADB_COMPAT_PREFIX) ? text.substring(MARIADB_COMPAT_PREFIX.length())
                : text;
        Matcher m = NUMBERS.matcher(numbers);
        if (!m.find()) {
            throw new IllegalArgumentException("cannot read a version number from server version '" + text + "'");
        }
        return new ServerVersion(mariadb ? Flavor.MARIADB : Flavor.MYSQL, Integer.parseInt(m.group(1)),
                Integer.parseInt(m.group(2)), m.group(3) == null ? 0 : Integer.parseInt(m.group(3)), text);
    }

    public boolean isMariaDb() {
        return flavor == Flavor.MARIADB;
    }

    public boolean atLeast(int wantedMajor, int wantedMinor, int wantedPatch) {
        if (major != wantedMajor) {
            return major > wantedMajor;
        }
        if (minor != wantedMinor) {
            return minor > wantedMinor;
        }
        return patch >= wantedPatch;
    }

    /** MySQL 8.4 removed SHOW MASTER STATUS in favour of SHOW BINARY LOG STATUS. */
    public String binlogStatusQuery() {
        return !isMariaDb() && atLeast(8, 4, 0) ? "SHOW BINARY LOG STATUS" : "SHOW MASTER STATUS";
    }

    @Override
    public String toString() {
        return text;
    }
}
