package dev.canal.parse.retention;

import dev.canal.parse.position.ConsumerCursors;
import dev.canal.protocol.position.EntryPosition;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The binlog retention left to each consumer of a destination (docs/operations.md, "Binlog retention"): at start
 * and then every {@code canal.instance.binlog.retention.check.seconds}, how long until the source's expiry would
 * purge the binlog file that the consumer's cursor names. The figures are the metric
 * {@code canal_instance_binlog_retention_seconds}; a consumer whose figure falls below
 * {@code canal.instance.binlog.retention.alarm.seconds} raises an alarm once, and a line says when it is back above.
 */
public final class RetentionWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RetentionWatch.class);
    /**
     * One thread checks for every destination of the daemon: a check is a few short queries once a minute, and a
     * thread per destination would cost more than the checks.
     */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "canal-binlog-retention");
        t.setDaemon(true);
        return t;
    });

    private final String destination;
    private final RetentionConfig config;
    private final ConsumerCursors cursors;
    private final BinlogRetention retention;
    private final ScheduledFuture<?> checks;
    private volatile Map<String, Double> secondsLeft = Map.of();
    private final Set<String> alarmed = new HashSet<>(); // the timer's thread only
    private boolean failing; // the timer's thread only

    private RetentionWatch(String destination, RetentionConfig config, ConsumerCursors cursors,
            BinlogRetention retention) {
        this.destination = destination;
        this.config = config;
        this.cursors = cursors;
        this.retention = retention;
        this.checks = TIMER.scheduleWithFixedDelay(this::check, 0, config.checkSeconds(), TimeUnit.SECONDS);
    }

    /**
     * A running watch.
     *
     * @param connections a connection to the source being read now, for its binlog files and expiry
     * @param fileStarts  when a binlog file of that source began
     */
    public static RetentionWatch start(String destination, RetentionConfig config, ConsumerCursors cursors,
            Supplier<Connection> connections, BinlogFileStarts fileStarts) {
        return new RetentionWatch(destination, config, cursors, new BinlogRetention(connections, fileStarts));
    }

    /** Seconds left per consumer (by subscribed name) at the last check: infinite when the source never expires. */
    public Map<String, Double> secondsLeft() {
        return secondsLeft;
    }

    private void check() {
        MDC.put("destination", destination);
        try {
            Map<String, String> files = new HashMap<>();
            cursors.cursors(destination).forEach((consumer, cursor) -> {
                if (cursor.hasJournal()) {
                    files.put(consumer, cursor.journalName());
                }
            });
            Map<String, Double> byFile = retention.secondsLeft(new TreeSet<>(files.values()));
            Map<String, Double> byConsumer = new HashMap<>();
            files.forEach((consumer, file) -> byConsumer.put(consumer, byFile.get(file)));
            secondsLeft = Map.copyOf(byConsumer);
            alarmOnChange(files, byConsumer);
            failing = false;
        } catch (SQLException | IOException | RuntimeException e) {
            if (!failing) {
                log.warn("destination {}: cannot read the source's binlog retention ({}); trying again every {} s",
                        destination, e.toString(), config.checkSeconds());
            }
            failing = true;
        } finally {
            MDC.remove("destination");
        }
    }

    private void alarmOnChange(Map<String, String> files, Map<String, Double> byConsumer) {
        alarmed.retainAll(byConsumer.keySet());
        byConsumer.forEach((consumer, left) -> {
            boolean low = left < config.alarmSeconds();
            if (low && alarmed.add(consumer)) {
                log.error("destination {}: ALARM: the source's binlog expiry purges {}, which consumer {} still needs, "
                        + "in {} s (below {} s): the consumer must catch up or the expiry be raised", destination,
                        files.get(consumer), consumer, Math.round(left), config.alarmSeconds());
            } else if (!low && alarmed.remove(consumer)) {
                log.warn("destination {}: consumer {} is {} of the source's binlog expiry again", destination, consumer,
                        left.isInfinite() ? "clear" : Math.round(left) + " s ahead");
            }
        });
    }

    @Override
    public void close() {
        checks.cancel(false); // a check under way ends on its own; no other starts
    }
}
