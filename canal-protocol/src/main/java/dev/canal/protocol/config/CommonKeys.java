package dev.canal.protocol.config;

import java.util.List;

/** Keys read by more than one module, declared here, below all of them. */
public final class CommonKeys {

    public static final ConfigKey FILE_DATA_DIR = ConfigKey.canal("canal.file.data.dir", "../conf",
            "Root of each destination's local files: its folder here holds meta.dat (the clients' cursors in file "
                    + "mode) and the schema history.");
    public static final ConfigKey DESTINATION = ConfigKey.canal("canal.instance.destination", null,
            "Set by the server to the destination's name, for ${canal.instance.destination} in the instance's XML "
                    + "and properties; not meant to be set by hand.");

    public static final ConfigKey ZK_SERVERS = ConfigKey.canal("canal.zkServers", "",
            "ZooKeeper servers (host:port,...): active/standby election of destinations and the clients' cursors "
                    + "in default-instance.xml. Empty runs without ZooKeeper.");

    public static final List<ConfigKey> KEYS = List.of(FILE_DATA_DIR, DESTINATION, ZK_SERVERS);

    private CommonKeys() {
    }
}
