package dev.canal.parse.meta;

import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The source's collation ids with their character sets and bytes per character, read once from
 * information_schema: TABLE_MAP optional metadata names charsets by collation id, and CHAR/VARCHAR lengths
 * travel in bytes.
 */
public final class CollationCatalog {

    /** MySQL's collation id of the binary "charset" (binary strings and blobs). */
    public static final int BINARY = 63;

    public record Collation(String charset, int maxBytesPerChar) {

        public boolean isBinary() {
            return "binary".equalsIgnoreCase(charset);
        }

        public Charset javaCharset() {
            return MysqlCharsets.javaCharset(charset);
        }
    }

    private final Supplier<Connection> connections;
    private volatile Map<Integer, Collation> byId; // loaded once

    public CollationCatalog(Supplier<Connection> connections) {
        this.connections = connections;
    }

    /** The collation of an id, or null when the server does not know it. */
    public Collation collation(int id) {
        if (id == BINARY) {
            return new Collation("binary", 1);
        }
        return load().get(id);
    }

    private Map<Integer, Collation> load() {
        Map<Integer, Collation> loaded = byId;
        if (loaded != null) {
            return loaded;
        }
        try (Connection c = connections.get(); Statement st = c.createStatement()) {
            Map<String, Integer> maxLen = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT CHARACTER_SET_NAME, MAXLEN FROM information_schema.CHARACTER_SETS")) {
                while (rs.next()) {
                    maxLen.put(rs.getString(1), rs.getInt(2));
                }
            }
            Map<Integer, Collation> ids = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT ID, CHARACTER_SET_NAME FROM information_schema.COLLATIONS")) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    if (!rs.wasNull()) {
                        String charset = rs.getString(2);
                        ids.put(id, new Collation(charset, maxLen.getOrDefault(charset, 1)));
                    }
                }
            }
            byId = Map.copyOf(ids);
            return byId;
        } catch (SQLException e) {
            throw new TableMetaException("cannot read the source's collations: " + e.getMessage(), e);
        }
    }
}
