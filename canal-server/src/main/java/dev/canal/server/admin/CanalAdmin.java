package dev.canal.server.admin;

import java.util.List;

/**
 * The server and instance operations canal-admin asks for through the admin port (Canal's CanalAdmin;
 * docs/admin.md). Each returns whether it took effect; the admin port answers {@code "1"} or {@code "0"}.
 * Any exception is reported to the caller as error 400 and changes nothing else.
 */
public interface CanalAdmin {

    /** Whether the server (its instances and client port or MQ workers) is running. */
    boolean check();

    /** Starts the server if it is stopped; the admin port itself always runs. */
    boolean start();

    /** Stops the server; the admin port stays up, so a later {@link #start()} can bring it back. */
    boolean stop();

    boolean restart();

    /** The destinations whose instance runs here, in name order. */
    List<String> runningInstances();

    boolean checkInstance(String destination);

    boolean startInstance(String destination);

    boolean stopInstance(String destination);

    /** Gives the destination up: with ZooKeeper another server takes it over, without it simply stops here. */
    boolean releaseInstance(String destination);

    boolean restartInstance(String destination);
}
