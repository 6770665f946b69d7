package dev.canal.reference;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What the reference launcher serves, read from a properties file (see docs/reference-canal.md):
 *
 * <pre>
 * canal.port = 11111                 # the TCP port of CanalServerWithNetty
 * canal.destinations = example       # one instance per name
 * example.master.address = 127.0.0.1:3306
 * example.dbUsername = canal
 * example.dbPassword = canal
 * example.master.journal.name = mysql-bin.000003   # start position: file + offset ...
 * example.master.position = 4
 * example.master.timestamp = 1700000000000          # ... and its time (ms), optional
 * example.filter.regex = .*\\..*                     # default .*\\..*
 * example.filter.black.regex = db\\.skip.*          # default none
 * example.filter.field = db.t:id/name                # columns kept per table, default none
 * example.filter.black.field = db.t2:secret          # columns dropped per table, default none
 * example.memory.buffer.size = 16384                 # store slots, default 16384
 * example.tsdb.enable = true                         # table-meta TSDB (in memory), default true
 * example.slaveId = 1234                             # default 1234
 * example.parser.parallel = true                     # default true
 * example.filter.query.dml = false                   # the filter switches of canal.instance.filter.*, each
 * example.filter.query.ddl = false                   #   default false: query.dml/ddl/dcl, dml.insert/update/
 * example.filter.rows = false                        #   delete, rows, transaction.entry, table.error
 * example.get.ddl.isolation = false                  # each DDL in a batch of its own, default false
 * example.gtidon = false                             # dump by GTID set, default false ...
 * example.master.gtid = 3E11FA47-...:1-5              # ... starting after this set
 * example.meta.dir = /tmp/reference-meta             # client cursors in files there (kept across restarts);
 *                                                    #   default in memory
 * </pre>
 */
record ReferenceConfig(int port, List<Instance> instances) {

    /** One destination's instance: source, start position and the few settings that change what it does. */
    record Instance(String destination, InetSocketAddress address, String username, String password,
            String journalName, Long position, Long timestamp, String filterRegex, String filterBlackRegex,
            String fieldFilter, String fieldBlackFilter, int memoryBufferSize, boolean tsdb, long slaveId,
            boolean parallel, Switches switches, String gtidStart, String metaDir) {
    }

    /**
     * The deployer's on/off instance keys ({@code canal.instance.filter.*}, {@code get.ddl.isolation},
     * {@code gtidon}), which its {@code file-instance.xml} hands to the parser, the sink and the store; each false
     * unless set.
     */
    record Switches(boolean filterQueryDml, boolean filterQueryDdl, boolean filterQueryDcl, boolean filterDmlInsert,
            boolean filterDmlUpdate, boolean filterDmlDelete, boolean filterRows, boolean filterTransactionEntry,
            boolean filterTableError, boolean ddlIsolation, boolean gtid) {

        static Switches of(Properties p, String d) {
            return new Switches(flag(p, d, "filter.query.dml"), flag(p, d, "filter.query.ddl"),
                    flag(p, d, "filter.query.dcl"), flag(p, d, "filter.dml.insert"), flag(p, d, "filter.dml.update"),
                    flag(p, d, "filter.dml.delete"), flag(p, d, "filter.rows"), flag(p, d, "filter.transaction.entry"),
                    flag(p, d, "filter.table.error"), flag(p, d, "get.ddl.isolation"), flag(p, d, "gtidon"));
        }

        private static boolean flag(Properties p, String destination, String key) {
            String v = optional(p, destination + "." + key);
            if (v == null) {
                return false;
            }
            if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException(destination + "." + key + " must be true or false, got " + v);
            }
            return Boolean.parseBoolean(v);
        }
    }

    static ReferenceConfig from(Properties p) {
        int port = intValue(p, "canal.port", null);
        if (port <= 0 || port > 65_535) {
            throw new IllegalArgumentException("canal.port must be a TCP port (1..65535), got " + port);
        }
        String names = p.getProperty("canal.destinations", "").trim();
        if (names.isEmpty()) {
            throw new IllegalArgumentException("canal.destinations names no destination");
        }
        List<Instance> instances = new ArrayList<>();
        for (String destination : Arrays.stream(names.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .toList()) {
            instances.add(instance(p, destination));
        }
        return new ReferenceConfig(port, List.copyOf(instances));
    }

    private static Instance instance(Properties p, String d) {
        String journal = p.getProperty(d + ".master.journal.name");
        Long position = longValue(p, d + ".master.position");
        if ((journal == null) != (position == null)) {
            throw new IllegalArgumentException(d + ": give " + d + ".master.journal.name and " + d
                    + ".master.position together (or neither, to start at the source's current position)");
        }
        int buffer = intValue(p, d + ".memory.buffer.size", 16_384);
        if (Integer.bitCount(buffer) != 1) {
            throw new IllegalArgumentException(d + ".memory.buffer.size must be a power of two, got " + buffer);
        }
        return new Instance(d, address(required(p, d + ".master.address")), required(p, d + ".dbUsername"),
                p.getProperty(d + ".dbPassword", ""), journal, position, longValue(p, d + ".master.timestamp"),
                p.getProperty(d + ".filter.regex", ".*\\..*"), optional(p, d + ".filter.black.regex"),
                optional(p, d + ".filter.field"), optional(p, d + ".filter.black.field"), buffer,
                Boolean.parseBoolean(p.getProperty(d + ".tsdb.enable", "true")),
                longValue(p, d + ".slaveId") == null ? 1234 : longValue(p, d + ".slaveId"),
                Boolean.parseBoolean(p.getProperty(d + ".parser.parallel", "true")), Switches.of(p, d),
                optional(p, d + ".master.gtid"), optional(p, d + ".meta.dir"));
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("master.address must be HOST:PORT, got " + hostPort);
        }
        return new InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1).trim()));
    }

    private static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("missing " + key);
        }
        return v.trim();
    }

    /** The trimmed value, or null when the key is absent or blank. */
    private static String optional(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private static int intValue(Properties p, String key, Integer fallback) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            if (fallback == null) {
                throw new IllegalArgumentException("missing " + key);
            }
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got " + v, e);
        }
    }

    private static Long longValue(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got " + v, e);
        }
    }
}
