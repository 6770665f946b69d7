package dev.canal.server;

/**
 * Makes a destination run on this node before a client subscribes to it. Without
 * ZooKeeper this just starts the instance; with it, the deployer plugs in the running monitor, which starts
 * the instance only on the node that wins the election.
 */
@FunctionalInterface
public interface DestinationActivator {

    void activate(String destination);
}
