package dev.canal.protocol.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Keeps passwords and tokens out of what configuration records print: a record's text with its secret components
 * masked, and a map of settings with the values of secret-sounding keys masked. Configuration records call it from
 * their {@code toString}, so a record in a log line or an exception message never carries a secret.
 */
public final class Secrets {

    public static final String MASK = "***";
    private static final String[] SECRET_WORDS = {"passw", "secret", "token", "credential", "jaas"};

    private Secrets() {
    }

    /** {@code MASK} for a value that is set, "" for one that is not (whether a secret is set is no secret). */
    public static String mask(Object value) {
        return value == null || value.toString().isEmpty() ? "" : MASK;
    }

    /** Whether a setting of this name holds a secret (its name speaks of a password, secret, token or credential). */
    public static boolean isSecretName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String word : SECRET_WORDS) {
            if (lower.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** The record as Java prints it ({@code Name[a=1, b=2]}), the components named in {@code secret} masked. */
    public static String toString(Record record, Set<String> secret) {
        StringJoiner text = new StringJoiner(", ", record.getClass().getSimpleName() + "[", "]");
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + component.getName() + " of "
                        + record.getClass().getSimpleName(), e);
            }
            text.add(component.getName() + "=" + (secret.contains(component.getName()) ? mask(value) : value));
        }
        return text.toString();
    }

    /** The settings sorted by name, the values of secret-sounding names masked. */
    public static String toString(Map<String, String> settings) {
        Map<String, String> shown = new TreeMap<>();
        settings.forEach((name, value) -> shown.put(name, isSecretName(name) ? mask(value) : value));
        return shown.toString();
    }
}
