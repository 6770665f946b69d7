package dev.canal.server;

import dev.canal.instance.CanalInstance;

/**
 * Builds the instance of a destination when the server first needs it (Canal's CanalInstanceGenerator):
 * from Spring XML and properties in the deployer, from plain objects in tests.
 */
@FunctionalInterface
public interface CanalInstanceGenerator {

    /** @throws RuntimeException naming the destination when it is unknown or its configuration is invalid */
    CanalInstance generate(String destination);
}
