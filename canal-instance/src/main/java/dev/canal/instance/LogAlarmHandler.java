package dev.canal.instance;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The alarm handler every shipped XML wires (Canal's LogAlarmHandler): an alarm is a WARN log line. */
public final class LogAlarmHandler implements AlarmHandler {

    private static final Logger log = LoggerFactory.getLogger(LogAlarmHandler.class);

    @Override
    public void sendAlarm(String destination, String message) {
        log.warn("alarm for destination {}: {}", destination, message);
    }
}
