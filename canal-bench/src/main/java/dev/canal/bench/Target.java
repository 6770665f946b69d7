package dev.canal.bench;

import dev.canal.protocol.config.Secrets;
import dev.canal.testsupport.MySqlServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * What a stage reads: the database, the binlog coordinates the workload starts at, and how many row changes
 * it holds. Passed from the driver to each stage's JVM as {@code key=value} arguments.
 */
record Target(String host, int port, String user, String password, String file, long position, long startMillis,
        long rowChanges, boolean mysqlFlavor, BenchTable.Shape shape, String schema) {

    /** A fixed replica server id, away from the fixture's and the parser tests' ids. */
    static final long SERVER_ID = 64_123;
    /** Canal's default store size ({@code canal.instance.memory.buffer.size}), as our server stage uses. */
    static final int REFERENCE_BUFFER_SIZE = 16_384;

    List<String> toArgs() {
        return List.of("host=" + host, "port=" + port, "user=" + user, "password=" + password, "file=" + file,
                "position=" + position, "startMillis=" + startMillis, "rows=" + rowChanges, "mysql=" + mysqlFlavor,
                "shape=" + shape.label, "schema=" + schema);
    }

    static Target fromArgs(List<String> args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq > 0) {
                a.put(arg.substring(0, eq), arg.substring(eq + 1));
            }
        }
        return new Target(a.get("host"), Integer.parseInt(a.get("port")), a.get("user"), a.get("password"),
                a.get("file"), Long.parseLong(a.get("position")), Long.parseLong(a.get("startMillis")),
                Long.parseLong(a.get("rows")), Boolean.parseBoolean(a.get("mysql")),
                BenchTable.Shape.of(a.get("shape")), a.getOrDefault("schema", BenchTable.SCHEMA));
    }

    /** A loaded workload's target on {@code db}. */
    static Target of(MySqlServer db, Workload.Loaded loaded, BenchTable.Shape shape) {
        return of(db, loaded, shape, BenchTable.SCHEMA);
    }

    /** A loaded workload's target on {@code db}, its filter the tables of {@code schema}. */
    static Target of(MySqlServer db, Workload.Loaded loaded, BenchTable.Shape shape, String schema) {
        return new Target(db.host(), db.port(), db.replicationUser(), db.replicationPassword(), loaded.startFile(),
                loaded.startPosition(), loaded.startMillis(), loaded.rowChanges(), !db.isMariaDb(), shape, schema);
    }

    /** Whether the table's document column reaches a binlog reader as MySQL's binary JSON. */
    boolean binaryJson() {
        return mysqlFlavor && shape.hasJsonColumn();
    }

    /**
     * The real Canal's destination for this target: the same start (file, offset and time) and filter as our
     * parser's, Canal's default store size, and a server id of its own (ours + 2; + 1 is the live reference
     * decoder's).
     */
    ReferenceCanal.Destination referenceDestination(String name) {
        return new ReferenceCanal.Destination(name, host, port, user, password, file, position, startMillis,
                schema + "\\..*", REFERENCE_BUFFER_SIZE, SERVER_ID + 2);
    }

    /** Instance properties for a parser catching up from the workload's start, filtered to the target's schema. */
    Properties parserProperties(boolean parallel) {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", host + ":" + port);
        p.setProperty("canal.instance.dbUsername", user);
        p.setProperty("canal.instance.dbPassword", password);
        p.setProperty("canal.instance.master.journal.name", file);
        p.setProperty("canal.instance.master.position", Long.toString(position));
        p.setProperty("canal.instance.mysql.slaveId", Long.toString(SERVER_ID));
        p.setProperty("canal.instance.filter.regex", schema + "\\..*");
        p.setProperty("canal.instance.parser.parallel", Boolean.toString(parallel));
        p.setProperty("canal.file.data.dir", StageFolders.schemaHistory().toString());
        return p;
    }

    @Override
    public String toString() {
        return Secrets.toString(this, Set.of("password")); // never the secret itself
    }
}
