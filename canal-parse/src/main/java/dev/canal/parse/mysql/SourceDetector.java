package dev.canal.parse.mysql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Canal's detecting heartbeat ({@code canal.instance.detecting.*}): runs the configured SQL on its own connection
 * to the source being read, every interval. When it has failed more than the threshold of consecutive times,
 * either the source-down handler runs (the switch to the other source, with {@code heartbeatHaEnable}; counting
 * then starts afresh against the new source, as in Canal) or, without it, an alarm is logged once, and again a
 * line when the source answers.
 */
final class SourceDetector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SourceDetector.class);

    private final String destination;
    private final String sql;
    private final int threshold;
    private final Supplier<Connection> connections;
    private final Runnable onSourceDown;
    private final ScheduledExecutorService timer;
    private Connection connection; // timer thread only
    private int failures; // timer thread only

    private SourceDetector(String destination, MysqlParserConfig config, Supplier<Connection> connections,
            Runnable onSourceDown) {
        this.destination = destination;
        this.onSourceDown = onSourceDown;
        this.sql = config.detectingSql().trim();
        this.threshold = config.detectingRetryThreshold();
        this.connections = connections;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detecting-" + destination);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::probe, config.detectingIntervalSeconds(),
                config.detectingIntervalSeconds(), TimeUnit.SECONDS);
    }

    /**
     * A running detector when {@code canal.instance.detecting.enable} is on with an SQL, else null.
     *
     * @param connections  opens a connection to the source being read now
     * @param onSourceDown runs on the detector's thread after more than the threshold of failures in a row; null
     *                     to only raise the alarm
     */
    static SourceDetector startIfEnabled(String destination, MysqlParserConfig config, Supplier<Connection> connections,
            Runnable onSourceDown) {
        if (!config.detectingEnable() || config.detectingSql() == null || config.detectingSql().isBlank()) {
            return null;
        }
        return new SourceDetector(destination, config, connections, onSourceDown);
    }

    /** Consecutive failures so far (0 while the source answers). */
    synchronized int failures() {
        return failures;
    }

    private synchronized void probe() {
        MDC.put("destination", destination); // the detector's own thread: its lines go to the destination's log
        try {
            if (connection == null || connection.isClosed()) {
                connection = connections.get();
            }
            try (Statement st = connection.createStatement()) {
                // select/show/explain/desc run as queries, anything else (Canal's xdual upsert) as an update
                if (isQuery(sql)) {
                    st.executeQuery(sql).close();
                } else {
                    st.executeUpdate(sql);
                }
            }
            if (failures > threshold) {
                log.warn("destination {}: the source answers the detecting SQL again", destination);
            }
            failures = 0;
        } catch (SQLException | RuntimeException e) {
            failures++;
            closeConnection();
            if (failures <= threshold) {
                log.warn("destination {}: the source failed the detecting SQL ({} of {} in a row before it counts "
                        + "as down): {}", destination, failures, threshold + 1, e.getMessage());
            } else if (onSourceDown != null) {
                onSourceDown.run();
                failures = 0;
            } else if (failures == threshold + 1) {
                log.error("destination {}: ALARM: the source failed the detecting SQL {} times in a row: {}",
                        destination, failures, e.getMessage());
            }
        }
    }

    private static boolean isQuery(String statement) {
        String head = statement.stripLeading().toLowerCase(Locale.ROOT);
        return head.startsWith("select") || head.startsWith("show") || head.startsWith("explain")
                || head.startsWith("desc");
    }

    private void closeConnection() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // the connection failed already; closing it is best effort
        }
        connection = null;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        synchronized (this) {
            closeConnection();
        }
    }
}
