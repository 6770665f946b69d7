package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 3 (docs/reliability.md): the daemon reads its source through a {@link TcpProxy}; while a writer keeps
 * inserting, the proxy drops every connection and refuses new ones until the parser has come back twice (its
 * back-off retries), then accepts again: the parser reconnects and resumes where it was, nothing lost, nothing
 * skipped, order kept.
 */
class SourceOutageIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(SourceOutageIT.class);
    private static final String SCHEMA = "rel_source_cut";
    private static final String STALL_SCHEMA = "rel_source_stall";
    private static final int READ_TIMEOUT_SECONDS = 5;
    private static final Pattern RETRY = Pattern.compile("reconnecting in (\\d+) ms");

    @Test
    void parserReconnectsWithBackOffAfterTheSourceConnectionIsCutAndSkipsNothing(MySqlServer db) throws Exception {
        Random random = seededRandom("SourceOutageIT");
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 3, Duration.ofMillis(3));
        try (TcpProxy proxy = new TcpProxy(db.host(), db.port())) {
            daemon = CanalDaemon.unpack(home, db, "127.0.0.1", proxy.port(), SCHEMA, db.currentBinlogPosition());
            daemon.start();
            String scenario = "source connection cut and refused (TCP proxy)";
            DeliveryCheck check = runTrials(scenario, SCHEMA, writer, random, 300, (trial, consumer) -> {
                int acceptedBefore = proxy.accepted();
                int refusedBefore = proxy.refused();
                proxy.cutAndRefuse();
                // rows from number writtenAtCut + 2 on were committed after the cut
                int writtenAtCut = writer.total();
                // the source stays away until the parser has retried twice (back-off: ~1 s, then ~2 s)
                await().atMost(Duration.ofSeconds(150)).until(() -> proxy.refused() >= refusedBefore + 2);
                proxy.acceptAgain();
                long reopenedAt = System.nanoTime();
                daemon.awaitOrShowLogs("a row written after the cut", Duration.ofSeconds(90),
                        () -> consumer.distinctReceived() >= writtenAtCut + 2);
                long recovery = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - reopenedAt);
                assertThat(proxy.accepted()).as("trial %d: the parser connected again", trial)
                        .isGreaterThan(acceptedBefore);
                log.info("trial {}: {} connections refused during the outage", trial,
                        proxy.refused() - refusedBefore);
                return recovery;
            });
            assertThat(check.duplicated()).as("the parser resumes where it was, so no row twice: %s", check).isZero();
            assertThat(daemon.log("logs/example/example.log")).as("the back-off is logged").contains("reconnecting in");
        }
    }

    @Test
    void parserNoticesASilentlyDeadSourceConnectionByItsReadTimeoutAndResumes(MySqlServer db) throws Exception {
        Random random = seededRandom("SourceOutageIT (stall)");
        db.recreateDatabase(STALL_SCHEMA);
        RowWriter writer = RowWriter.create(db, STALL_SCHEMA, 3, Duration.ofMillis(3));
        try (TcpProxy proxy = new TcpProxy(db.host(), db.port())) {
            daemon = CanalDaemon.unpack(home, db, "127.0.0.1", proxy.port(), STALL_SCHEMA, db.currentBinlogPosition());
            // below the 15 s heartbeat: fine while rows flow, and it keeps the test short
            daemon.set("conf/canal.properties", "canal.instance.network.soTimeout", String.valueOf(READ_TIMEOUT_SECONDS));
            daemon.start();
            String scenario = "source connection silently dead (proxy swallows bytes; read timeout "
                    + READ_TIMEOUT_SECONDS + " s)";
            DeliveryCheck check = runTrials(scenario, STALL_SCHEMA, writer, random, 300, (trial, consumer) -> {
                int acceptedBefore = proxy.accepted();
                proxy.blackholeOpenConnections();
                long stalledAt = System.nanoTime();
                // rows from number writtenAtStall + 2 on came after the fault
                int writtenAtStall = writer.total();
                daemon.awaitOrShowLogs("a row written after the source went silent", Duration.ofSeconds(90),
                        () -> consumer.distinctReceived() >= writtenAtStall + 2);
                long recovery = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stalledAt);
                assertThat(proxy.accepted()).as("trial %d: the parser opened a new connection", trial)
                        .isGreaterThan(acceptedBefore);
                return recovery;
            });
            assertThat(check.duplicated()).as("the parser resumes where it was, so no row twice: %s", check).isZero();
        }
    }

    /**
     * Regression guard for a back-off that never started over: MysqlEventParser set its back-off back to 1 s only
     * when a dump ended without an exception, which a streaming dump never does, so each outage waited twice as
     * long as the one before, however long the stream was healthy in between (1, 2, 4, 8, 16 s... in
     * {@code SourceRestartIT -Dreliability.trials=5}). The parser now starts over after a connection that streamed
     * for 5 s. The healthy period is timed from the first row the reconnected stream delivered, not from the
     * moment the proxy accepts again: the parser may still sleep out a back-off of several seconds then.
     */
    @Test
    void backOffStartsAgainFromOneSecondAfterAHealthyStream(MySqlServer db) throws Exception {
        String schema = SCHEMA + "_backoff";
        db.recreateDatabase(schema);
        RowWriter writer = RowWriter.create(db, schema, 1, Duration.ofMillis(5));
        try (TcpProxy proxy = new TcpProxy(db.host(), db.port())) {
            daemon = CanalDaemon.unpack(home, db, "127.0.0.1", proxy.port(), schema, db.currentBinlogPosition());
            daemon.start();
            try (writer; CheckingConsumer consumer = new CheckingConsumer(daemon.port, schema, 0)) {
                writer.begin();
                List<Long> firstRetries = new ArrayList<>();
                long reachableSince = System.nanoTime();
                for (int outage = 1; outage <= 2; outage++) {
                    long from = reachableSince;
                    daemon.awaitOrShowLogs("a row from the (re)connected stream", Duration.ofSeconds(90),
                            () -> consumer.firstReceivedAfter(from).isPresent());
                    long streamingSince = consumer.firstReceivedAfter(from).orElseThrow().receivedAtNanos();
                    daemon.awaitOrShowLogs("8 s of streaming", Duration.ofSeconds(90),
                            () -> consumer.firstReceivedAfter(streamingSince + TimeUnit.SECONDS.toNanos(8)).isPresent());
                    int retriesBefore = loggedRetryDelays().size();
                    int refusedBefore = proxy.refused();
                    proxy.cutAndRefuse();
                    await().atMost(Duration.ofSeconds(150)).until(() -> proxy.refused() >= refusedBefore + 2);
                    proxy.acceptAgain();
                    reachableSince = System.nanoTime();
                    firstRetries.add(loggedRetryDelays().get(retriesBefore));
                }
                assertThat(firstRetries).as("first back-off of each outage, ms: %s", firstRetries)
                        .allSatisfy(delay -> assertThat(delay).isLessThanOrEqualTo(1500L));
            }
        }
    }

    /** Every back-off the parser announced, in order ({@code reconnecting in N ms}). */
    private List<Long> loggedRetryDelays() {
        Matcher matcher = RETRY.matcher(daemon.log("logs/example/example.log"));
        List<Long> delays = new ArrayList<>();
        while (matcher.find()) {
            delays.add(Long.parseLong(matcher.group(1)));
        }
        return delays;
    }
}
