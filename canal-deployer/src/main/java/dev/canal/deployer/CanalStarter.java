package dev.canal.deployer;

import dev.canal.deployer.admin.AdminConfig;
import dev.canal.deployer.admin.AdminConfigClient;
import dev.canal.deployer.admin.AdminInstances;
import dev.canal.deployer.admin.AdminUnavailableException;
import dev.canal.deployer.admin.ControllerAdmin;
import dev.canal.deployer.admin.RemoteConfig;
import dev.canal.instance.spring.InstanceProperties;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.server.admin.AdminRequests;
import dev.canal.server.admin.AdminServer;
import dev.canal.server.admin.LogFiles;
import dev.canal.server.netty.DaemonThreads;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole process (Canal's CanalStarter): the server ({@link CanalController}), the admin port beside it, and in
 * canal-admin's manager mode (docs/admin.md) the configuration taken from canal-admin. The admin port outlives
 * the server it administers, so canal-admin can stop and start the server through it.
 *
 * <p>In manager mode canal.properties comes from canal-admin with the local file's keys on top (so
 * {@code canal_local.properties} keeps canal-admin's address, credentials and this server's identity), and the
 * instances come from canal-admin too. canal.properties is polled every {@code canal.auto.scan.interval} seconds;
 * when it changes, the new one is checked and, if valid, the server restarts with it. A failed poll is logged and
 * leaves the server as it runs.
 */
public final class CanalStarter {

    private static final Logger log = LoggerFactory.getLogger(CanalStarter.class);

    private final Source local;
    private final String[] additionalXml;
    private final AdminConfig admin;
    private final AdminConfigClient client; // null unless managed
    private RemoteConfig remote; // guarded by this; canal.properties as canal-admin last gave it
    private CanalServerConfig config; // guarded by this
    private CanalController controller; // guarded by this
    private AdminServer adminServer; // guarded by this
    private ScheduledExecutorService poller; // guarded by this
    private String lastFailure; // poller thread only

    private CanalStarter(Source local, InstanceProperties localResolved, AdminConfig admin, String... additionalXml) {
        this.local = local;
        this.admin = admin;
        this.additionalXml = additionalXml.clone();
        this.client = admin.managed() ? new AdminConfigClient(admin, registerIp(localResolved), hostName()) : null;
    }

    /**
     * Starts the server and, where configured, the admin port and the polling of canal-admin.
     *
     * @throws ConfigException when the configuration is invalid, canal-admin cannot give it, or a port cannot be
     *     bound; nothing keeps running then
     */
    public static CanalStarter start(Source localProperties, String... additionalXml) {
        InstanceProperties localResolved = InstanceProperties.forServer(localProperties);
        AdminConfig admin = adminConfig(localResolved);
        CanalStarter starter = new CanalStarter(localProperties, localResolved, admin, additionalXml);
        synchronized (starter) {
            starter.config = starter.loadConfig();
            starter.controller = starter.newController(starter.config);
            starter.controller.start();
            try {
                starter.openAdminPort();
            } catch (RuntimeException e) {
                starter.controller.stop();
                throw e;
            }
            if (admin.managed()) {
                starter.pollServerConfig(Duration.ofSeconds(starter.config.autoScanIntervalSeconds()));
            }
        }
        return starter;
    }

    public synchronized CanalController controller() {
        return controller;
    }

    /** The admin port, or -1 when none is open. */
    public synchronized int adminPort() {
        return adminServer == null ? -1 : adminServer.port();
    }

    /** Stops polling, the admin port and the server. */
    public void stop() {
        ScheduledExecutorService runningPoller;
        synchronized (this) {
            runningPoller = poller;
            poller = null;
        }
        if (runningPoller != null) {
            runningPoller.shutdown();
            try {
                runningPoller.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (adminServer != null) {
                adminServer.stop();
                adminServer = null;
            }
            controller.stop();
        }
    }

    /** Starts the server again from the configuration held, unless it runs. @return whether it was started */
    public synchronized boolean startServer() {
        if (controller.isRunning()) {
            return false;
        }
        CanalController fresh = newController(config);
        fresh.start();
        controller = fresh;
        return true;
    }

    /** Stops the server, leaving the admin port open. @return whether it ran */
    public synchronized boolean stopServer() {
        if (!controller.isRunning()) {
            return false;
        }
        controller.stop();
        return true;
    }

    private CanalController newController(CanalServerConfig serverConfig) {
        if (client == null) {
            return new CanalController(serverConfig, additionalXml);
        }
        AdminInstances instances = new AdminInstances(client,
                Duration.ofSeconds(serverConfig.autoScanIntervalSeconds()), serverConfig.autoScan());
        return new CanalController(serverConfig, instances, additionalXml);
    }

    /** The local file, or in manager mode canal-admin's canal.properties with the local file's keys on top. */
    private CanalServerConfig loadConfig() {
        if (client == null) {
            return CanalServerConfig.load(local);
        }
        try {
            remote = client.server("");
        } catch (AdminUnavailableException e) {
            throw new ConfigException("cannot take canal.properties from canal-admin: " + e.getMessage(), e);
        }
        if (remote == null) {
            throw new ConfigException("canal-admin " + admin.manager() + " holds no canal.properties for this server; "
                    + "add it there, or set " + AdminConfig.REGISTER_AUTO.name() + "=true to register it");
        }
        return CanalServerConfig.load(merged(remote));
    }

    private Source merged(RemoteConfig fromAdmin) {
        Properties values = fromAdmin.properties();
        values.putAll(local.values());
        return new Source("canal.properties of canal-admin " + admin.manager() + " (with " + local.name()
                + " on top)", values);
    }

    private void openAdminPort() {
        if (admin.port() == AdminConfig.NO_PORT) {
            return;
        }
        if (!admin.opensPort()) {
            log.warn("the admin port is not opened: {} is empty, and an admin port without a password would let "
                    + "anyone stop this server; set {} to enable it", AdminConfig.PASSWD.name(), AdminConfig.PASSWD.name());
            return;
        }
        AdminServer server = new AdminServer(config.tcp().ip(), admin.port(), admin.credentials(),
                new AdminRequests(new ControllerAdmin(this), new LogFiles(admin.logDir())));
        try {
            server.start();
        } catch (IllegalStateException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        adminServer = server;
    }

    private void pollServerConfig(Duration interval) {
        poller = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("canal-admin-server-poll"));
        long millis = interval.toMillis();
        poller.scheduleWithFixedDelay(this::pollOnce, millis, millis, TimeUnit.MILLISECONDS);
        log.info("following canal.properties in canal-admin {} every {} s", admin.manager(), interval.toSeconds());
    }

    private void pollOnce() {
        String held;
        synchronized (this) {
            held = remote.md5();
        }
        RemoteConfig changed;
        try {
            changed = client.server(held); // outside the lock: admin requests are not held up by a slow canal-admin
            if (lastFailure != null) {
                log.info("canal-admin {} answers again", admin.manager());
                lastFailure = null;
            }
        } catch (AdminUnavailableException e) {
            if (!e.getMessage().equals(lastFailure)) {
                log.error("polling canal-admin for canal.properties failed, the server keeps running as it is: {}",
                        e.getMessage());
                lastFailure = e.getMessage();
            }
            return;
        }
        if (changed != null) {
            applyServerConfig(changed);
        }
    }

    /** A changed canal.properties: checked first, then the server restarts with it. */
    private synchronized void applyServerConfig(RemoteConfig changed) {
        CanalServerConfig next;
        try {
            next = CanalServerConfig.load(merged(changed));
        } catch (RuntimeException e) {
            log.error("canal.properties changed in canal-admin but is not applied, the server keeps running as it is: "
                    + "{}", e.getMessage());
            remote = changed; // reported once; the next change is tried again
            return;
        }
        log.info("canal.properties changed in canal-admin, restarting the server with it");
        remote = changed;
        config = next;
        boolean wasRunning = stopServer();
        if (wasRunning) {
            try {
                startServer();
            } catch (RuntimeException e) {
                log.error("the server did not start with canal-admin's new canal.properties; it stays stopped until "
                        + "the configuration is fixed there or it is started through the admin port: {}",
                        e.getMessage(), e);
            }
        }
    }

    private static AdminConfig adminConfig(InstanceProperties resolved) {
        try {
            return AdminConfig.fromProperties(resolved.effective());
        } catch (ConfigValueException e) {
            throw ConfigException.invalid(e, resolved);
        }
    }

    /** {@code canal.register.ip}, else this host's address: how canal-admin knows this server. */
    private static String registerIp(InstanceProperties local) {
        String configured = local.get(CanalServerConfig.REGISTER_IP.name());
        if (configured != null) {
            return configured;
        }
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            throw new ConfigException("cannot find this host's address to give canal-admin; set "
                    + CanalServerConfig.REGISTER_IP, e);
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
