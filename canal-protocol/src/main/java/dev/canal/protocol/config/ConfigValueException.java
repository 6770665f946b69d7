package dev.canal.protocol.config;

/**
 * A configuration value that cannot be used, carrying its key (and the value, unless it is a secret), so whoever
 * reports it can name where the key is set without reading the message back. Thrown by {@link TypedProperties} and
 * every configuration record.
 */
public class ConfigValueException extends IllegalArgumentException {

    private final String key;
    private final String value;
    private final String reason;

    private ConfigValueException(String key, String value, String message, String reason, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.value = value;
        this.reason = reason;
    }

    /** A value that is set but wrong. */
    public static ConfigValueException invalid(String key, String value, String reason) {
        return invalid(key, value, reason, null);
    }

    public static ConfigValueException invalid(String key, String value, String reason, Throwable cause) {
        return new ConfigValueException(key, value, "invalid value '" + value + "' for " + key + ": " + reason, reason,
                cause);
    }

    /** A required value that is absent or blank. */
    public static ConfigValueException missing(String key, String reason) {
        return new ConfigValueException(key, null, "missing value for " + key + ": " + reason, reason, null);
    }

    /** A wrong value that must not be shown (a password): the message names the key alone. */
    public static ConfigValueException secret(String key, String reason) {
        return new ConfigValueException(key, null, "invalid value for " + key + ": " + reason, reason, null);
    }

    /** The key as written in the file (a family member or per-destination key by its full name). */
    public String key() {
        return key;
    }

    /** The value as written; null when it is missing or a secret. */
    public String value() {
        return value;
    }

    /** Why the value cannot be used, without the key and the value. */
    public String reason() {
        return reason;
    }
}
