package dev.canal.instance.spring;

import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;

/**
 * The daemon's one ZooKeeper client, shared by every destination's cursors (and by the server's election and
 * registration), for the XML as the bean {@value SpringCanalInstanceGenerator#SHARED_ZOOKEEPER_BEAN}. The daemon
 * owns and closes it; an instance never does. {@link #NONE} where the daemon has none (no {@code canal.zkServers}
 * at the server level, or an instance built outside a daemon): default-instance.xml then connects a client of
 * its own.
 *
 * @param servers the connect string the client was made with ({@code canal.zkServers})
 * @param client  the started client, null in {@link #NONE}
 */
public record SharedZooKeeper(String servers, CuratorFramework client) {

    public static final SharedZooKeeper NONE = new SharedZooKeeper("", null);

    public SharedZooKeeper {
        Objects.requireNonNull(servers, "servers");
    }

    public static SharedZooKeeper of(String servers, CuratorFramework client) {
        return new SharedZooKeeper(servers, Objects.requireNonNull(client, "client"));
    }

    /** Whether this client serves an instance whose {@code canal.zkServers} is {@code servers}. */
    public boolean serves(String instanceServers) {
        return client != null && servers.equals(instanceServers);
    }
}
