package dev.canal.deployer;

import java.util.Set;

/**
 * The destinations of a running server, as those who follow their configuration (the auto scan, canal-admin's
 * instance list) and the admin port change them. Each method does nothing once the server stops.
 */
public interface Destinations {

    /** The destinations deployed here, lazy and released ones included. */
    Set<String> deployed();

    /** The destinations whose instance runs here. */
    Set<String> running();

    /**
     * Reads the destination's configuration once, builds its instance and (unless lazy) starts it.
     *
     * @throws RuntimeException naming the destination and the key when its configuration is invalid
     */
    void deploy(String destination);

    /**
     * Replaces a deployed destination with one built from its configuration as it is now. The new configuration is
     * read and built first: when it is invalid the running instance is left as it was and the error is thrown.
     */
    void redeploy(String destination);

    /** Stops and forgets a destination: its configuration is gone, or an operator stopped it. */
    void undeploy(String destination);

    /**
     * Gives the destination up here (canal-admin's instance release): with ZooKeeper another server takes it over;
     * without, it is stopped here. It stays deployed, so a client's subscription or a start brings it back.
     *
     * @return whether it ran here
     */
    boolean release(String destination);
}
