package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TcpPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What every MQ mode's deployer test does: a destination on one table of a real database, the server started in the
 * mode with Canal's keys, no TCP port served, five rows inserted; then the test reads the broker and hands each flat
 * message to {@link #accept}, which keeps the inserted ids of the table's INSERT messages.
 */
final class MqModeScenario implements AutoCloseable {

    static final int ROWS = 5;
    private static final Pattern INSERTED_ID = Pattern.compile("\"data\":\\[\\{\"id\":\"(\\d+)\"");

    private final String schema;
    private final List<Integer> ids = new ArrayList<>();
    private long deadline;
    private CanalController controller;

    MqModeScenario(String schema) {
        this.schema = schema;
    }

    /** Starts the server in an MQ mode ({@code canal.serverMode} among the keys) and writes the rows. */
    void start(MySqlServer db, Path conf, String destination, List<String> instanceLines, String... canalKeys)
            throws Exception {
        db.recreateDatabase(schema);
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, destination, db, schema, instanceLines.toArray(String[]::new));
        int tcpPort = TcpPorts.free();
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, destination,
                Stream.concat(Stream.of("canal.port", String.valueOf(tcpPort)), Stream.of(canalKeys))
                        .toArray(String[]::new)));

        assertThat(controller.port()).isEqualTo(-1);
        assertThat(TcpPorts.isListening(tcpPort)).isFalse();
        for (int id = 1; id <= ROWS; id++) {
            db.execute("INSERT INTO " + schema + ".t VALUES (" + id + ", 'row " + id + "')");
        }
        deadline = System.nanoTime() + 60_000_000_000L;
    }

    /** Whether rows are still missing and the minute the test allows has not passed. */
    boolean waiting() {
        return ids.size() < ROWS && System.nanoTime() < deadline;
    }

    /** One flat message from the broker: an INSERT of the table counts its id; MariaDB's QUERY messages are skipped. */
    void accept(byte[] body) {
        String message = new String(body, StandardCharsets.UTF_8);
        Matcher m = INSERTED_ID.matcher(message);
        if (message.contains("\"type\":\"INSERT\"") && m.find()) {
            assertThat(message).contains("\"database\":\"" + schema + "\"", "\"table\":\"t\"");
            ids.add(Integer.parseInt(m.group(1)));
        }
    }

    void assertEveryRowArrivedInOrder() {
        assertThat(ids).containsExactly(1, 2, 3, 4, 5);
    }

    @Override
    public void close() {
        if (controller != null) {
            controller.stop();
        }
    }
}
