package dev.canal.meta;

import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;

/** Positions as Canal's meta.dat and cursor node examples use them. */
final class Positions {

    private Positions() {
    }

    /** localhost:3306, mysql-bin.000001 at the given offset, server 1, gtid "". */
    static LogPosition at(long offset) {
        return new LogPosition(LogIdentity.of("localhost", 3306),
                new EntryPosition("mysql-bin.000001", offset, 1L, 1700000000000L, "", false));
    }

    static PositionRange range(long from, long to) {
        return new PositionRange(at(from), at(to), at(to), to);
    }
}
