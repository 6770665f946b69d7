package dev.canal.deployer;

import dev.canal.instance.spring.InstanceProperties;
import dev.canal.protocol.config.ConfigValueException;

/** Configuration that stops start-up; the message names the file and the key. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A bad value, named with the file (or override) its key came from. */
    public static ConfigException invalid(ConfigValueException error, InstanceProperties resolved) {
        ConfigException invalid = invalid(resolved.originOf(error.key()), error.key(), error.getMessage());
        invalid.initCause(error);
        return invalid;
    }

    /** A bad value of a key read from a file (or a system property / environment variable overriding it). */
    public static ConfigException invalid(String origin, String key, String reason) {
        return new ConfigException("invalid configuration in " + origin + ", key " + key + ": " + reason);
    }
}
