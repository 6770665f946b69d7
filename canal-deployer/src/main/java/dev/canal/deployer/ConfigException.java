package dev.canal.deployer;

/** Configuration that stops start-up; the message names the file and the key. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A bad value of a key read from a file (or a system property / environment variable overriding it). */
    public static ConfigException invalid(String origin, String key, String reason) {
        return new ConfigException("invalid configuration in " + origin + ", key " + key + ": " + reason);
    }
}
