package dev.canal.instance;

/**
 * Where an instance reports conditions an operator must act on (Canal's CanalAlarmHandler), such as a
 * parser that cannot continue. Started after the meta manager and stopped before it.
 */
public interface AlarmHandler {

    void sendAlarm(String destination, String message);

    default void start() {
    }

    default void stop() {
    }
}
