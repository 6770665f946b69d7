package dev.canal.protocol.config;

import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * Typed reads of instance properties with Canal's resolution rules (docs/configuration.md): values are trimmed
 * and a blank value counts as missing. A value that does not parse fails with a {@link ConfigValueException}
 * carrying its key. The reads that take a {@link ConfigKey} use its declared default, so a default is written once,
 * and check its declared constraint.
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
            throw ConfigValueException.missing(key, "required");
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

    /** The value, or the key's declared default; either checked against the key's constraint. */
    public String string(ConfigKey key) {
        String value = string(key.name(), key.defaultValue());
        if (value != null) {
            key.check(value);
        }
        return value;
    }

    public boolean bool(ConfigKey key) {
        return bool(key.name(), Boolean.parseBoolean(declaredDefault(key)));
    }

    public int integer(ConfigKey key) {
        int value = integer(key.name(), Integer.parseInt(declaredDefault(key)));
        key.check(Integer.toString(value));
        return value;
    }

    /** For a key whose default is computed: the value, else {@code computedDefault}; the value checked. */
    public int integer(ConfigKey key, int computedDefault) {
        int value = integer(key.name(), computedDefault);
        key.check(Integer.toString(value));
        return value;
    }

    public long longValue(ConfigKey key) {
        long value = longValue(key.name(), Long.parseLong(declaredDefault(key)));
        key.check(Long.toString(value));
        return value;
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

    public static ConfigValueException invalid(String key, String value, String reason) {
        return ConfigValueException.invalid(key, value, reason);
    }
}
