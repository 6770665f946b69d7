package dev.canal.instance.spring;

import dev.canal.instance.spring.InstanceProperties.Source;

/**
 * Where a destination's own properties come from: its {@code instance.properties} file, or (manager mode)
 * what canal-admin holds for it.
 */
@FunctionalInterface
public interface InstanceSource {

    /** @throws InstanceConfigException when the destination has no configuration or it cannot be read */
    Source load(String destination);
}
