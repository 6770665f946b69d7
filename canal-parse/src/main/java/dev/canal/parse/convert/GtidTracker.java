package dev.canal.parse.convert;

import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.GtidEvent;
import dev.canal.binlog.event.MariaGtidEvent;
import dev.canal.binlog.gtid.MariadbGtid;
import dev.canal.binlog.gtid.MariadbGtidList;
import dev.canal.binlog.gtid.MysqlGtidSet;
import dev.canal.protocol.CanalEntry;
import java.util.List;

/**
 * Follows the executed GTID set in GTID mode: every entry's header carries the set, the
 * current transaction's GTID goes into the {@code curtGtid*} props, and a restart dumps from the set of the last
 * delivered transaction end. Off outside GTID mode: no gtid, no props, as Canal with {@code gtidon=false}.
 *
 * <p>Binlog-order thread only.
 */
public final class GtidTracker {

    private final MysqlGtidSet mysql;
    private final MariadbGtidList mariadb;
    private String executed;
    private List<CanalEntry.Pair> currentProps = List.of();

    private GtidTracker(MysqlGtidSet mysql, MariadbGtidList mariadb) {
        this.mysql = mysql;
        this.mariadb = mariadb;
        this.executed = mysql != null ? mysql.toString() : mariadb != null ? mariadb.toString() : null;
    }

    public static GtidTracker off() {
        return new GtidTracker(null, null);
    }

    public static GtidTracker mysql(MysqlGtidSet start) {
        return new GtidTracker(start.copy(), null);
    }

    public static GtidTracker mariadb(MariadbGtidList start) {
        return new GtidTracker(null, start.copy());
    }

    /** Takes in a GTID event; ignores every other event. */
    public void onEvent(BinlogEvent event) {
        if (mysql != null && event instanceof GtidEvent g && !g.anonymous()) {
            if (g.tag() == null) {
                mysql.add(g.sid().toString(), g.gno());
            } else {
                mysql.add(g.sid().toString(), g.tag(), g.gno());
            }
            executed = mysql.toString();
            currentProps = List.of(EntryFactory.pair("curtGtid", g.gtid()),
                    EntryFactory.pair("curtGtidSn", Long.toString(g.sequenceNumber())),
                    EntryFactory.pair("curtGtidLct", Long.toString(g.lastCommitted())));
        } else if (mariadb != null && event instanceof MariaGtidEvent m) {
            MariadbGtid gtid = new MariadbGtid(m.domainId(), m.header().serverId(), m.sequence());
            mariadb.update(gtid);
            executed = mariadb.toString();
            currentProps = List.of(EntryFactory.pair("curtGtid", gtid.toString()));
        }
    }

    /** The executed set for entry headers; null outside GTID mode. */
    public String executed() {
        return executed;
    }

    /** The current transaction's GTID props; empty outside GTID mode. */
    public List<CanalEntry.Pair> currentProps() {
        return currentProps;
    }
}
