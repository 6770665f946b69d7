package dev.canal.deployer.admin;

import dev.canal.deployer.CanalController;
import dev.canal.deployer.CanalStarter;
import dev.canal.server.admin.CanalAdmin;
import java.util.List;

/**
 * The admin port's operations on this process (Canal's CanalAdminController): the server as a whole through
 * {@link CanalStarter}, a destination through the running {@link CanalController}. Server operations answer
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
        CanalController controller = running();
        if (controller == null) {
            return false;
        }
        if (controller.server().isStart(destination)) {
            return true;
        }
        if (controller.deployedDestinations().contains(destination)) {
            controller.redeploy(destination);
        } else {
            controller.deploy(destination);
        }
        return true;
    }

    @Override
    public boolean stopInstance(String destination) {
        CanalController controller = running();
        if (controller == null || !controller.deployedDestinations().contains(destination)) {
            return false;
        }
        controller.undeploy(destination);
        return true;
    }

    @Override
    public boolean releaseInstance(String destination) {
        CanalController controller = running();
        return controller != null && controller.release(destination);
    }

    @Override
    public boolean restartInstance(String destination) {
        CanalController controller = running();
        if (controller == null) {
            return false;
        }
        if (controller.deployedDestinations().contains(destination)) {
            controller.redeploy(destination);
        } else {
            controller.deploy(destination);
        }
        return true;
    }

    private CanalController running() {
        CanalController controller = starter.controller();
        return controller.isRunning() ? controller : null;
    }
}
