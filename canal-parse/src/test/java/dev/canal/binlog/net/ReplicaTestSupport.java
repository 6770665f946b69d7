package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/** Shared helpers of the replication ITs: options, event fields, reading until a condition. */
final class ReplicaTestSupport {

    static final int QUERY_EVENT = 2;
    static final int ROTATE_EVENT = 4;
    static final int FORMAT_DESCRIPTION_EVENT = 15;
    static final int XID_EVENT = 16;
    static final int TABLE_MAP_EVENT = 19;
    static final int WRITE_ROWS_V1 = 23;
    static final int HEARTBEAT_EVENT = 27;
    static final int WRITE_ROWS_V2 = 30;
    static final int GTID_EVENT = 33;
    static final int PREVIOUS_GTIDS_EVENT = 35;
    static final int HEARTBEAT_V2_EVENT = 41;
    static final int GTID_TAGGED_EVENT = 42;
    static final int MARIADB_ANNOTATE_ROWS_EVENT = 160;
    static final int MARIADB_GTID_EVENT = 162;

    /** Bounds every read loop so that a missing event fails the test instead of hanging it. */
    private static final int MAX_EVENTS = 5000;
    static final Duration SO_TIMEOUT = Duration.ofSeconds(20);

    private ReplicaTestSupport() {
    }

    /**
     * Plain TCP; on Oracle MySQL the test accounts use caching_sha2_password, whose first login after a restart
     * needs the server's RSA key, so fetching it is allowed here (docs/security.md).
     */
    static ConnectionOptions options(MySqlServer db, String user, String password) {
        return ConnectionOptions.of(db.host(), db.port(), user, password)
                .withNetwork(NetworkOptions.defaults().withSoTimeout(SO_TIMEOUT))
                .withSsl(SslOptions.disabled().withPublicKeyRetrieval(true));
    }

    static ConnectionOptions replicationOptions(MySqlServer db) {
        return options(db, db.replicationUser(), db.replicationPassword());
    }

    /** A server id no other test (or concurrent suite on the same server) is likely to use. */
    static long randomServerId() {
        return ThreadLocalRandom.current().nextLong(100_000, 4_000_000_000L);
    }

    static ReplicaSession replica(ConnectionOptions options, Duration heartbeat) throws IOException {
        return new ReplicaSession(MysqlConnection.open(options), new ReplicaOptions(randomServerId(), heartbeat));
    }

    static int type(byte[] event) {
        return event[4] & 0xFF;
    }

    static long nextPosition(byte[] event) {
        return EventChecksum.uint32(event, 13);
    }

    static long serverId(byte[] event) {
        return EventChecksum.uint32(event, 5);
    }

    static boolean isRowsInsert(byte[] event) {
        return type(event) == WRITE_ROWS_V1 || type(event) == WRITE_ROWS_V2;
    }

    static boolean isTableMapOf(byte[] event, String table) {
        return type(event) == TABLE_MAP_EVENT
                && new String(event, StandardCharsets.ISO_8859_1).contains(table);
    }

    /** Reads events until one matches, returning all read (the match last). */
    static List<byte[]> readUntil(BinlogStream stream, Predicate<byte[]> stop) throws IOException {
        List<byte[]> events = new ArrayList<>();
        for (int i = 0; i < MAX_EVENTS; i++) {
            byte[] event = stream.next();
            assertThat(event).as("stream ended before the expected event").isNotNull();
            events.add(event);
            if (stop.test(event)) {
                return events;
            }
        }
        throw new AssertionError("expected event not among the first " + MAX_EVENTS);
    }

    /**
     * A PKCS12 trust store holding the server's CA certificate, when the server's data directory is readable
     * here (a local server); empty otherwise.
     */
    static Optional<Path> trustStoreWithServerCa(MySqlServer db) throws Exception {
        String caFile = db.variable("ssl_ca");
        if (caFile == null || caFile.isBlank()) {
            return Optional.empty();
        }
        Path ca = Path.of(caFile);
        if (!ca.isAbsolute()) {
            ca = Path.of(db.variable("datadir")).resolve(ca);
        }
        if (!Files.isReadable(ca)) {
            return Optional.empty();
        }
        X509Certificate cert;
        try (InputStream in = Files.newInputStream(ca)) {
            cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("mysql-ca", cert);
        Path file = Files.createTempFile("canal-test-trust", ".p12");
        file.toFile().deleteOnExit();
        try (var out = Files.newOutputStream(file)) {
            store.store(out, "changeit".toCharArray());
        }
        return Optional.of(file);
    }
}
