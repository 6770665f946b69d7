package dev.canal.deployer.admin;

import dev.canal.deployer.ConfigException;
import dev.canal.deployer.Destinations;
import dev.canal.deployer.InstanceSupply;
import dev.canal.instance.spring.InstanceConfigException;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.instance.spring.InstanceSource;
import dev.canal.server.netty.DaemonThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Manager mode's instances (Canal's ManagerInstanceConfigMonitor; docs/admin.md): canal-admin's list of this
 * server's instances and each one's instance.properties, fetched at start-up and then polled every
 * {@code canal.auto.scan.interval} seconds (when {@code canal.auto.scan} is on) with the MD5 of what is held. A
 * destination new to the list is deployed, one whose configuration changed is redeployed, one gone from the list
 * is undeployed.
 *
 * <p>A poll that fails (canal-admin unreachable, refusing the credentials, answering nonsense) is logged and
 * changes nothing: every running instance keeps running, and the next poll tries again. The failure is logged
 * once, and again only when it changes; recovery is logged too.
 */
public final class AdminInstances implements InstanceSupply {

    private static final Logger log = LoggerFactory.getLogger(AdminInstances.class);

    private final AdminConfigClient client;
    private final Duration interval;
    private final boolean follow;
    /** Each destination's configuration as last fetched. */
    private final Map<String, RemoteConfig> held = new ConcurrentHashMap<>();
    private RemoteConfig heldList = RemoteConfig.of(""); // poller thread only after start-up
    private String lastFailure; // poller thread only

    /**
     * @param interval {@code canal.auto.scan.interval}
     * @param follow   {@code canal.auto.scan}: poll for changes after start-up
     */
    public AdminInstances(AdminConfigClient client, Duration interval, boolean follow) {
        this.client = client;
        this.interval = interval;
        this.follow = follow;
    }

    /** @throws ConfigException when canal-admin cannot give the list or a configuration on it */
    @Override
    public List<String> destinations() {
        try {
            RemoteConfig list = client.instances("");
            heldList = list != null ? list : RemoteConfig.of("");
            List<String> names = AdminConfigClient.names(heldList);
            for (String destination : names) {
                RemoteConfig config = client.instance(destination, "");
                if (config == null) {
                    throw new ConfigException("canal-admin " + client.manager() + " lists destination " + destination
                            + " for this server but holds no configuration for it");
                }
                held.put(destination, config);
            }
            log.info("canal-admin {} runs destinations {} on this server", client.manager(), names);
            return names;
        } catch (AdminUnavailableException e) {
            throw new ConfigException("cannot take the instances from canal-admin: " + e.getMessage(), e);
        }
    }

    @Override
    public InstanceSource source() {
        return destination -> {
            RemoteConfig config = held.get(destination);
            if (config == null) {
                throw new InstanceConfigException(destination, "canal-admin " + client.manager()
                        + " holds no configuration for it on this server", null);
            }
            try {
                return new Source("canal-admin " + client.manager() + " instance " + destination,
                        config.properties());
            } catch (IllegalArgumentException e) {
                throw new InstanceConfigException(destination, "canal-admin's configuration is not a properties "
                        + "file: " + e.getMessage(), e);
            }
        };
    }

    @Override
    public AutoCloseable follow(Destinations destinations) {
        if (!follow) {
            log.info("canal.auto.scan is off: instance changes in canal-admin are not followed");
            return () -> { };
        }
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(
                DaemonThreads.named("canal-admin-instance-poll"));
        long millis = interval.toMillis();
        poller.scheduleWithFixedDelay(() -> pollSafely(destinations), millis, millis, TimeUnit.MILLISECONDS);
        return () -> {
            poller.shutdown();
            poller.awaitTermination(30, TimeUnit.SECONDS);
        };
    }

    private void pollSafely(Destinations destinations) {
        try {
            poll(destinations);
            if (lastFailure != null) {
                log.info("canal-admin {} answers again", client.manager());
                lastFailure = null;
            }
        } catch (AdminUnavailableException e) {
            if (!e.getMessage().equals(lastFailure)) {
                log.error("polling canal-admin for instance changes failed, the running instances keep running: {}",
                        e.getMessage());
                lastFailure = e.getMessage();
            }
        } catch (RuntimeException e) {
            log.error("applying canal-admin's instance changes failed; trying again in {} s", interval.toSeconds(), e);
        }
    }

    /** One poll: the list, then each listed destination's configuration, then what is gone. */
    void poll(Destinations destinations) {
        RemoteConfig list = client.instances(heldList.md5());
        if (list != null) {
            heldList = list;
        }
        List<String> names = AdminConfigClient.names(heldList);
        List<String> changed = new ArrayList<>();
        for (String destination : names) {
            RemoteConfig before = held.get(destination);
            RemoteConfig now = client.instance(destination, before == null ? "" : before.md5());
            if (now != null) {
                held.put(destination, now);
                changed.add(destination);
            }
        }
        for (String destination : List.copyOf(held.keySet())) {
            if (!names.contains(destination)) {
                held.remove(destination);
                log.info("destination {} is no longer on this server in canal-admin, stopping it", destination);
                destinations.undeploy(destination);
            }
        }
        for (String destination : changed) {
            apply(destinations, destination);
        }
    }

    private void apply(Destinations destinations, String destination) {
        boolean deployed = destinations.deployed().contains(destination);
        try {
            if (deployed) {
                log.info("destination {}: its configuration changed in canal-admin, restarting it", destination);
                destinations.redeploy(destination);
            } else {
                log.info("destination {}: new in canal-admin, starting it", destination);
                destinations.deploy(destination);
            }
        } catch (RuntimeException e) {
            log.error("destination {}: canal-admin's configuration is not applied ({}); {}", destination,
                    e.getMessage(), deployed ? "the running instance keeps its previous configuration"
                            : "it is not started");
        }
    }
}
