package dev.canal.deployer.admin;

import dev.canal.deployer.CanalController;
import dev.canal.deployer.CanalStarter;
import dev.canal.deployer.Destinations;
import dev.canal.server.admin.CanalAdmin;
import java.util.List;

/**
 * The admin port's operations on this process (Canal's CanalAdminController): the server as a whole through
 * {@link CanalStarter}, a destination through the running server's {@link Destinations}. Server operations answer
 * whether they changed something; instance operations whether the destination is now as asked.
 */
public final class ControllerAdmin implements CanalAdmin {

    private final CanalStarter starter;

    public ControllerAdmin(CanalStarter starter) {
        this.starter = starter;
    }

    @Override
    public boolean check() {
        return starter.controller().isRunning();
    }

    @Override
    public boolean start() {
        return starter.startServer();
    }

    @Override
    public boolean stop() {
        return starter.stopServer();
    }

    @Override
    public boolean restart() {
        starter.stopServer();
        return starter.startServer();
    }

    @Override
    public List<String> runningInstances() {
        return List.copyOf(starter.controller().runningDestinations());
    }

    @Override
    public boolean checkInstance(String destination) {
        return starter.controller().server().isStart(destination);
    }

    /** Deploys it, or restarts it when deployed but not running (stopped or released); a running one stays. */
    @Override
    public boolean startInstance(String destination) {
        Destinations destinations = running();
        if (destinations == null) {
            return false;
        }
        if (!starter.controller().server().isStart(destination)) {
            deployOrRedeploy(destinations, destination);
        }
        return true;
    }

    @Override
    public boolean stopInstance(String destination) {
        Destinations destinations = running();
        if (destinations == null || !destinations.deployed().contains(destination)) {
            return false;
        }
        destinations.undeploy(destination);
        return true;
    }

    @Override
    public boolean releaseInstance(String destination) {
        Destinations destinations = running();
        return destinations != null && destinations.release(destination);
    }

    @Override
    public boolean restartInstance(String destination) {
        Destinations destinations = running();
        if (destinations == null) {
            return false;
        }
        deployOrRedeploy(destinations, destination);
        return true;
    }

    private static void deployOrRedeploy(Destinations destinations, String destination) {
        if (destinations.deployed().contains(destination)) {
            destinations.redeploy(destination);
        } else {
            destinations.deploy(destination);
        }
    }

    /** The destinations of the running server; null when it is stopped. */
    private Destinations running() {
        CanalController controller = starter.controller();
        return controller.isRunning() ? controller.destinations() : null;
    }
}
