package dev.canal.parse.position;

import dev.canal.protocol.position.LogPosition;

/**
 * Where the parser restarts from (Canal's CanalLogPositionManager): the parser
 * persists the position of the last transaction end it handed to the sink, and asks for the latest one
 * when it (re)connects.
 */
public interface LogPositionManager {

    /** The position to resume from, or null when nothing is known. */
    LogPosition latest(String destination);

    void persist(String destination, LogPosition position);
}
