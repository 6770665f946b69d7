package dev.canal.deployer.admin;

import dev.canal.testsupport.MySqlServer;

/** The instance.properties of a destination streaming one table of the test database from its current position. */
public final class TableInstance {

    private TableInstance() {
    }

    public static String properties(MySqlServer db, String schema, String table) {
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        return String.join("\n",
                "canal.instance.master.address = " + db.host() + ":" + db.port(),
                "canal.instance.master.journal.name = " + start.file(),
                "canal.instance.master.position = " + start.position(),
                "canal.instance.dbUsername = " + db.replicationUser(),
                "canal.instance.dbPassword = " + db.replicationPassword(),
                "canal.instance.filter.regex = " + schema + "\\\\." + table) + "\n";
    }
}
