/**
 * Server high availability over ZooKeeper when {@code canal.zkServers} is set:
 * registration under {@code /otter/canal/cluster} and {@code /otter/canal/destinations/{dest}/cluster}, one
 * {@link dev.canal.server.ha.ServerRunningMonitor} per destination electing the server that runs it through the
 * ephemeral {@code /otter/canal/destinations/{dest}/running} node, and fencing: a server whose ZooKeeper session
 * is in doubt stops its instances before any other server can take them over. The launcher connects with
 * {@link dev.canal.server.ha.ZooKeeperConnections}, builds one {@link dev.canal.server.ha.ServerRunningMonitors}
 * and hands its {@link dev.canal.server.ha.ServerRunningMonitors#activator() activator} to the TCP server.
 */
package dev.canal.server.ha;
