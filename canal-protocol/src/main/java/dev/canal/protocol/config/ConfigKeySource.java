package dev.canal.protocol.config;

import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The keys one part of the server declares, found through {@link ServiceLoader}: each module that reads
 * configuration registers a subclass in {@code META-INF/services}, so the deployer lists every key without
 * importing the modules that read them, and a broker connector's keys are known even when its mode is not in use.
 */
public abstract class ConfigKeySource {

    private final String title;
    private final String file;
    private final List<ConfigKey> keys;

    /**
     * @param title a heading for the configuration reference, e.g. "Store"
     * @param file  where the keys are usually set: {@code canal.properties} or {@code instance.properties}
     * @param keys  the declarations
     */
    protected ConfigKeySource(String title, String file, List<ConfigKey> keys) {
        this.title = Objects.requireNonNull(title, "title");
        this.file = Objects.requireNonNull(file, "file");
        this.keys = List.copyOf(keys);
    }

    public final String title() {
        return title;
    }

    public final String file() {
        return file;
    }

    public final List<ConfigKey> keys() {
        return keys;
    }

    /** Every source on the class path. */
    public static List<ConfigKeySource> all() {
        return ServiceLoader.load(ConfigKeySource.class).stream().map(ServiceLoader.Provider::get).toList();
    }
}
