package dev.canal.server;

/**
 * Which destinations this server has deployed (started, lazy, or held by another server of its cluster): the only
 * ones a client may name. Anything else a client sends is refused before it reaches a log, a metric label,
 * ZooKeeper, the instance generator or a file path (dev.canal.protocol.DestinationNameRule).
 */
@FunctionalInterface
public interface DeployedDestinations {

    boolean isDeployed(String destination);
}
