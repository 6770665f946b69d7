package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 2 (docs/reliability.md): a client dies between get and ack, while a writer keeps inserting. Either
 * a client JVM killed with SIGKILL while it holds a batch, or a client that gets a batch and disconnects
 * without acking: the next client's first rows are exactly that batch's rows again, and over the whole run
 * nothing is lost and the only duplicates are those unacked batches.
 */
class ClientKillIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(ClientKillIT.class);
    private static final String SCHEMA = "rel_client_kill";
    private static final String FILTER = SCHEMA + "\\..*";

    private Process holder;

    /** Runs before the daemon is stopped (JUnit calls a subclass's @AfterEach methods first). */
    @AfterEach
    void stopHolder() {
        if (holder != null) {
            holder.destroyForcibly();
        }
    }

    @Test
    void nextClientGetsTheUnackedBatchOfAKilledOrVanishedClientAgain(MySqlServer db) throws Exception {
        Random random = seededRandom("ClientKillIT");
        int trials = ResultsTable.trials();

        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 2, Duration.ofMillis(5));
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.start();
        List<ReceivedRow> received = new ArrayList<>();
        List<Long> recoveries = new ArrayList<>();
        long unackedRows = 0;
        try (writer) {
            writer.begin();
            for (int trial = 1; trial <= trials; trial++) {
                await().atMost(Duration.ofSeconds(30)).until(() -> writer.total() > 0);
                List<ReceivedRow> held = holdInChildJvmAndKill(received.size());
                received.addAll(held);
                long killedAt = System.nanoTime();
                List<ReceivedRow> next = receiveAndAck(sessionAfter(received), held.size() + random.nextInt(50));
                received.addAll(next);
                assertRedelivered("trial " + trial + ", client JVM killed by SIGKILL", held, next);
                recoveries.add(TimeUnit.NANOSECONDS.toMillis(next.get(0).receivedAtNanos() - killedAt));

                List<ReceivedRow> dropped = getThenDisconnectWithoutAck(sessionAfter(received));
                received.addAll(dropped);
                next = receiveAndAck(sessionAfter(received), dropped.size() + random.nextInt(50));
                received.addAll(next);
                assertRedelivered("trial " + trial + ", client disconnected without ack", dropped, next);
                unackedRows += held.size() + dropped.size();
            }
        }
        CheckingConsumer.receiveTheRest(daemon.port, SCHEMA, sessionAfter(received), received, writer.total());

        DeliveryCheck check = DeliveryCheck.of(writer.committed(), received);
        ResultsTable.record("client SIGKILL / disconnect between get and ack", trials, check, recoveries);
        assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
        assertThat(check.orderBreaches()).as("%s", check).isEmpty();
        assertThat(check.duplicated()).as("duplicates are exactly the unacked batches' rows: %s", check)
                .isEqualTo(unackedRows);
    }

    /** Starts a client JVM, waits until it holds a batch with rows, kills it with SIGKILL, returns its rows. */
    private List<ReceivedRow> holdInChildJvmAndKill(int session) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        holder = new ProcessBuilder(java, "-Xmx64m", "-Dcom.google.protobuf.use_unsafe_pre22_gencode=true",
                "-cp", System.getProperty("java.class.path"), UnackedBatchHolder.class.getName(),
                String.valueOf(daemon.port), SCHEMA).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null && !line.startsWith(UnackedBatchHolder.PREFIX)) {
            seen.append(line).append('\n');
        }
        assertThat(line).as("the client JVM ended without holding a batch; it printed:%n%s", seen).isNotNull();
        holder.destroyForcibly(); // SIGKILL: no rollback, no goodbye on the socket's application level
        holder.waitFor();
        long now = System.nanoTime();
        String[] words = line.substring(UnackedBatchHolder.PREFIX.length()).split(" ");
        log.info("client JVM killed holding batch {} with {} rows", words[0], words.length - 1);
        return Arrays.stream(words, 1, words.length).map(w -> UnackedBatchHolder.parse(w, session, now)).toList();
    }

    /** One client: gets batches until it has a batch with rows, then disconnects without acking it. */
    private List<ReceivedRow> getThenDisconnectWithoutAck(int session) {
        CanalConnector connector = CheckingConsumer.connector(daemon.port);
        connector.connect();
        try {
            connector.subscribe(FILTER);
            while (true) {
                Message message = connector.getWithoutAck(4, 200L, TimeUnit.MILLISECONDS);
                List<ReceivedRow> rows = CheckingConsumer.insertedRows(message, session);
                if (!rows.isEmpty()) {
                    return rows;
                }
            }
        } finally {
            connector.disconnect();
        }
    }

    /** One client: gets and acks batches until it has at least {@code wanted} rows, then disconnects cleanly. */
    private List<ReceivedRow> receiveAndAck(int session, int wanted) {
        CanalConnector connector = CheckingConsumer.connector(daemon.port);
        connector.connect();
        List<ReceivedRow> rows;
        try {
            connector.subscribe(FILTER);
            rows = CheckingConsumer.receiveAndAck(connector, session, wanted, FILTER);
        } finally {
            connector.disconnect();
        }
        assertThat(rows).as("rows received by session %d", session).hasSizeGreaterThanOrEqualTo(wanted);
        return rows;
    }

    private static void assertRedelivered(String what, List<ReceivedRow> unacked, List<ReceivedRow> next) {
        assertThat(next.subList(0, unacked.size()).stream().map(ClientKillIT::rowKey).toList())
                .as("%s: the next client's first rows", what)
                .containsExactlyElementsOf(unacked.stream().map(ClientKillIT::rowKey).toList());
    }

    private static String rowKey(ReceivedRow row) {
        return row.table() + "#" + row.id() + "@" + row.position();
    }

    private static int sessionAfter(List<ReceivedRow> rows) {
        return rows.isEmpty() ? 0 : rows.get(rows.size() - 1).session() + 1;
    }
}
