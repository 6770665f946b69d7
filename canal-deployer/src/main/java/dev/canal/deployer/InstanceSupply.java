package dev.canal.deployer;

import dev.canal.instance.spring.InstanceSource;
import java.util.List;

/**
 * Destinations configured elsewhere than in the conf dir (canal-admin's manager mode): their names at start-up,
 * each one's own properties, and a follower that deploys, redeploys and undeploys them as they change, in place
 * of the auto scan.
 */
public interface InstanceSupply {

    /** The destinations to run at start-up. @throws ConfigException when they cannot be had */
    List<String> destinations();

    /** Each destination's own properties, in place of its instance.properties file. */
    InstanceSource source();

    /** Starts following changes, applying them to the destinations; closing the result stops it. */
    AutoCloseable follow(Destinations destinations);
}
