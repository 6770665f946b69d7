package dev.canal.protocol.config;

import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * Typed reads of instance properties with Canal's resolution rules (docs/configuration.md): values are trimmed
 * and a blank value counts as missing. A value that does not parse fails naming its key. The reads that take a
 * {@link ConfigKey} use its declared default, so a default is written once.
 */
public final class TypedProperties {

    private final Properties properties;

    public TypedProperties(Properties properties) {
        this.properties = Objects.requireNonNull(properties, "properties");
    }

    /** The trimmed value, or the default when absent or blank. */
    public String string(String key, String defaultValue) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        return value.trim();
    }

    public boolean bool(String key, boolean defaultValue) {
        String value = string(key, null);
        if (value == null) {
            return defaultValue;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, value, "expected true or false");
        };
    }

    /** The trimmed value; fails naming the key when it is absent or blank. */
    public String required(String key) {
        String value = string(key, null);
        if (value == null) {
            throw new IllegalArgumentException("missing value for " + key);
        }
        return value;
    }

    public long longValue(String key, long defaultValue) {
        String value = string(key, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(key, value, "expected an integer");
        }
    }

    /** A long that may be absent: null when the key is missing or blank. */
    public Long optionalLong(String key) {
        String value = string(key, null);
        return value == null ? null : longValue(key, 0);
    }

    public int integer(String key, int defaultValue) {
        String value = string(key, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw invalid(key, value, "expected an integer");
        }
    }

    public <E extends Enum<E>> E enumValue(String key, Class<E> type, E defaultValue) {
        String value = string(key, null);
        if (value == null) {
            return defaultValue;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw invalid(key, value, "expected one of " + java.util.Arrays.toString(type.getEnumConstants()));
    }

    /** The value, or the key's declared default. */
    public String string(ConfigKey key) {
        return string(key.name(), key.defaultValue());
    }

    public boolean bool(ConfigKey key) {
        return bool(key.name(), Boolean.parseBoolean(declaredDefault(key)));
    }

    public int integer(ConfigKey key) {
        return integer(key.name(), Integer.parseInt(declaredDefault(key)));
    }

    /** The value or the declared default, which must be above zero. */
    public int positiveInteger(ConfigKey key) {
        int value = integer(key);
        if (value <= 0) {
            throw invalid(key.name(), Integer.toString(value), "must be positive");
        }
        return value;
    }

    public long longValue(ConfigKey key) {
        return longValue(key.name(), Long.parseLong(declaredDefault(key)));
    }

    public <E extends Enum<E>> E enumValue(ConfigKey key, Class<E> type) {
        return enumValue(key.name(), type, Enum.valueOf(type, declaredDefault(key)));
    }

    private static String declaredDefault(ConfigKey key) {
        if (key.defaultValue() == null) {
            throw new IllegalStateException(key.name() + " declares no default; read it with an explicit one");
        }
        return key.defaultValue();
    }

    public static IllegalArgumentException invalid(String key, String value, String reason) {
        return new IllegalArgumentException("invalid value '" + value + "' for " + key + ": " + reason);
    }
}
