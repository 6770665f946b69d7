package dev.canal.parse.retention;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;

/**
 * How the binlog retention left to each consumer is watched (docs/operations.md, "Binlog retention").
 *
 * @param alarmSeconds an alarm is raised for a consumer whose binlog the source would purge sooner than this; 0 for
 *                     none
 * @param checkSeconds time between two looks at the source's binlogs and the consumers' cursors
 */
public record RetentionConfig(long alarmSeconds, long checkSeconds) {

    public static final ConfigKey ALARM_SECONDS = ConfigKey.ours("canal.instance.binlog.retention.alarm.seconds",
            "3600", "Raise an alarm when the source's binlog expiry (binlog_expire_logs_seconds, expire_logs_days) "
                    + "would purge the binlog file a consumer's cursor needs in fewer seconds than this; 0 for no "
                    + "alarm. The time left is the metric canal_instance_binlog_retention_seconds.").atLeast(0);
    public static final ConfigKey CHECK_SECONDS = ConfigKey.ours("canal.instance.binlog.retention.check.seconds",
            "60", "Seconds between two looks at the source's binlog files and expiry for the retention left to each "
                    + "consumer.").atLeast(1);

    public static final List<ConfigKey> KEYS = List.of(ALARM_SECONDS, CHECK_SECONDS);

    public static RetentionConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new RetentionConfig(p.longValue(ALARM_SECONDS), p.longValue(CHECK_SECONDS));
    }
}
