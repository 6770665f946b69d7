package dev.canal.parse.mysql;

import dev.canal.binlog.net.MysqlServerException;
import dev.canal.binlog.net.PublicKeyRetrievalException;
import java.net.UnknownHostException;

/**
 * Why the parser could not read its source, and, for a failure that retrying cannot cure until someone acts (a
 * wrong password, an unknown host, a missing privilege, binary logging off), what to do about it
 * (docs/troubleshooting.md). A failure without a remedy is passing: the source is down or restarting, the network
 * dropped the connection.
 *
 * @param reason what went wrong, in one line
 * @param remedy what the operator must change; null for a passing failure
 */
public record SourceFailure(String reason, String remedy) {

    /** ER_DBACCESS_DENIED_ERROR, ER_TABLEACCESS_DENIED_ERROR, ER_SPECIFIC_ACCESS_DENIED_ERROR: a missing grant. */
    private static final int DATABASE_ACCESS_DENIED = 1044;
    private static final int TABLE_ACCESS_DENIED = 1142;
    private static final int PRIVILEGE_MISSING = 1227;

    /** Whether retrying cannot help until the remedy is applied. */
    public boolean permanent() {
        return remedy != null;
    }

    /** The failure {@code error} stands for, reading {@code source} as {@code user}. */
    static SourceFailure of(Throwable error, String source, String user) {
        String grant = "GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + user + "'@'%'";
        UnknownHostException unknownHost = causeOf(error, UnknownHostException.class);
        if (unknownHost != null) {
            return new SourceFailure("unknown host " + unknownHost.getMessage(), "check the host in "
                    + MysqlParserConfig.MASTER_ADDRESS.name() + " (" + StandbySource.ADDRESS.name() + " for the standby)");
        }
        MysqlServerException server = causeOf(error, MysqlServerException.class);
        if (server != null && server.errorCode() == MysqlServerException.ACCESS_DENIED) {
            return new SourceFailure(server.serverMessage(), "check canal.instance.dbUsername and "
                    + "canal.instance.dbPassword, or create the account on " + source + ": CREATE USER '" + user
                    + "'@'%' IDENTIFIED BY '...'; " + grant);
        }
        if (server != null && (server.errorCode() == PRIVILEGE_MISSING || server.errorCode() == DATABASE_ACCESS_DENIED
                || server.errorCode() == TABLE_ACCESS_DENIED)) {
            return new SourceFailure(server.serverMessage(), "grant the account what it needs, on " + source + ": "
                    + grant);
        }
        if (error instanceof SourceSettingsCheck.UnsupportedSourceException unsupported) {
            return new SourceFailure(unsupported.getMessage(), unsupported.remedy());
        }
        PublicKeyRetrievalException publicKey = causeOf(error, PublicKeyRetrievalException.class);
        if (publicKey != null) {
            return new SourceFailure(publicKey.getMessage(), "set canal.instance.master.sslMode to REQUIRED, or "
                    + "canal.instance.master.allowPublicKeyRetrieval to true (docs/security.md)");
        }
        return new SourceFailure(innermostMessage(error), null);
    }

    private static <T extends Throwable> T causeOf(Throwable error, Class<T> type) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    /** The deepest cause's message ("Connection refused" rather than its wrappers'); a server error's own. */
    private static String innermostMessage(Throwable error) {
        Throwable deepest = error;
        while (deepest.getCause() != null && !(deepest instanceof MysqlServerException)) {
            deepest = deepest.getCause();
        }
        return deepest.getMessage() != null ? deepest.getMessage() : deepest.toString();
    }
}
