package dev.canal.parse.meta;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The JDBC connection table metadata is read over, opened when first needed. It may have timed out while the
 * binlog was quiet, so a read that fails is tried once more on a new connection.
 */
public final class MetadataConnection {

    /** A read over the connection. */
    @FunctionalInterface
    public interface Read<T> {

        T run(Connection connection) throws SQLException;
    }

    private final Supplier<Connection> connections;
    private Connection connection; // guarded by this

    /** @param connections opens a new JDBC connection to the source when the current one is unusable */
    public MetadataConnection(Supplier<Connection> connections) {
        this.connections = connections;
    }

    /**
     * Runs {@code read}, and once more on a new connection if it fails.
     *
     * @param failure what to throw when the second try fails too
     */
    public synchronized <T> T read(Read<T> read, Function<SQLException, ? extends RuntimeException> failure) {
        try {
            return read.run(current());
        } catch (SQLException first) {
            discard();
            try {
                return read.run(current());
            } catch (SQLException e) {
                throw failure.apply(e);
            }
        }
    }

    private Connection current() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = connections.get();
        }
        return connection;
    }

    private void discard() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // the connection is being replaced because it failed; its close error adds nothing
        }
        connection = null;
    }
}
