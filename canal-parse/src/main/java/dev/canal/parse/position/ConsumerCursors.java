package dev.canal.parse.position;

import dev.canal.protocol.position.EntryPosition;
import java.util.Map;

/** Where each consumer of a destination stands, for what watches the source on their behalf (the binlog retention). */
public interface ConsumerCursors {

    /**
     * The oldest acknowledged cursor of each consumer of {@code destination}, by the name it subscribes with (the
     * destination itself, or {@code destination@name}); consumers without a cursor are left out.
     */
    Map<String, EntryPosition> cursors(String destination);
}
