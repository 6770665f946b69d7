package dev.canal.parse.position;

import dev.canal.protocol.position.LogPosition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the primary first and the secondary when the primary knows nothing; persists to the primary, and to
 * the secondary only when the primary fails. Canal's file and ZooKeeper flavours pair memory (primary) with
 * the clients' acked cursors (secondary), so a restarted process resumes from what clients acknowledged.
 */
public final class FailbackLogPositionManager implements LogPositionManager {

    private static final Logger log = LoggerFactory.getLogger(FailbackLogPositionManager.class);

    private final LogPositionManager primary;
    private final LogPositionManager secondary;

    public FailbackLogPositionManager(LogPositionManager primary, LogPositionManager secondary) {
        this.primary = primary;
        this.secondary = secondary;
    }

    @Override
    public LogPosition latest(String destination) {
        LogPosition position = primary.latest(destination);
        return position != null ? position : secondary.latest(destination);
    }

    @Override
    public void persist(String destination, LogPosition position) {
        try {
            primary.persist(destination, position);
        } catch (RuntimeException e) {
            log.warn("destination {}: primary position store failed ({}), using the secondary", destination,
                    e.getMessage());
            secondary.persist(destination, position);
        }
    }
}
