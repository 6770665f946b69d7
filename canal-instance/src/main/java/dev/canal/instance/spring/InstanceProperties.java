package dev.canal.instance.spring;

import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;
import org.springframework.util.PropertyPlaceholderHelper;

/**
 * The values an instance sees, resolved with Canal's rules: a JVM system property, then
 * an OS environment variable with the exact key name, then the destination's instance.properties, then
 * canal.properties. Values are trimmed, a blank value counts as missing, and {@code ${key:default}} inside a
 * value is resolved with the same rules. {@code canal.instance.destination} is the destination's name, as
 * Canal sets it for the XML.
 */
public final class InstanceProperties {

    public static final String DESTINATION_KEY = "canal.instance.destination";

    /** A properties file and where it came from, so errors can name it. */
    public record Source(String name, Properties values) {

        public Source {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(values, "values");
        }

        public static Source empty(String name) {
            return new Source(name, new Properties());
        }
    }

    private static final PropertyPlaceholderHelper NESTED =
            new PropertyPlaceholderHelper("${", "}", ":", null, true);

    private final String destination;
    private final Source canalProperties;
    private final Source instanceProperties;
    private final Map<String, String> systemProperties;
    private final Map<String, String> environment;

    /** @param destination the destination's name, or null for the server-level values of canal.properties */
    public InstanceProperties(String destination, Source canalProperties, Source instanceProperties,
            Map<String, String> systemProperties, Map<String, String> environment) {
        this.destination = destination;
        this.canalProperties = Objects.requireNonNull(canalProperties, "canalProperties");
        this.instanceProperties = Objects.requireNonNull(instanceProperties, "instanceProperties");
        this.systemProperties = Map.copyOf(systemProperties);
        this.environment = Map.copyOf(environment);
    }

    /** Resolution against this JVM's system properties and environment. */
    public static InstanceProperties ofProcess(String destination, Source canalProperties, Source instanceProperties) {
        return new InstanceProperties(destination, canalProperties, instanceProperties, systemProperties(),
                System.getenv());
    }

    /** The server-level values: system property, environment, then canal.properties. */
    public static InstanceProperties forServer(Source canalProperties) {
        return new InstanceProperties(null, canalProperties, Source.empty("(no instance file)"), systemProperties(),
                System.getenv());
    }

    private static Map<String, String> systemProperties() {
        Map<String, String> system = new java.util.HashMap<>();
        System.getProperties().forEach((k, v) -> system.put(String.valueOf(k), String.valueOf(v)));
        return system;
    }

    public String destination() {
        return destination;
    }

    /** The value before nested placeholders are resolved, trimmed; null when absent or blank everywhere. */
    public String raw(String key) {
        if (DESTINATION_KEY.equals(key) && destination != null) {
            return destination;
        }
        for (String candidate : new String[] {systemProperties.get(key), environment.get(key),
                instanceProperties.values().getProperty(key), canalProperties.values().getProperty(key)}) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate.trim();
            }
        }
        return null;
    }

    /** The resolved value, or null when missing; an unresolvable nested placeholder stays as written. */
    public String get(String key) {
        String value = raw(key);
        return value == null ? null : NESTED.replacePlaceholders(value, this::raw).trim();
    }

    /**
     * Where the value of the key comes from: a system property, the environment or one of the two files; for a
     * key set nowhere, says so naming both files.
     */
    public String originOf(String key) {
        if (nonBlank(systemProperties.get(key))) {
            return "system property " + key;
        }
        if (nonBlank(environment.get(key))) {
            return "environment variable " + key;
        }
        if (nonBlank(instanceProperties.values().getProperty(key))) {
            return instanceProperties.name();
        }
        if (nonBlank(canalProperties.values().getProperty(key))) {
            return canalProperties.name();
        }
        return destination == null ? "not set in " + canalProperties.name()
                : "set in neither " + instanceProperties.name() + " nor " + canalProperties.name();
    }

    /**
     * Every key of both files plus system properties and environment variables starting with {@code canal.},
     * with resolved values and blanks left out: what the typed config records read.
     */
    public Properties effective() {
        TreeSet<String> keys = new TreeSet<>();
        canalProperties.values().stringPropertyNames().forEach(keys::add);
        instanceProperties.values().stringPropertyNames().forEach(keys::add);
        systemProperties.keySet().stream().filter(k -> k.startsWith("canal.")).forEach(keys::add);
        environment.keySet().stream().filter(k -> k.startsWith("canal.")).forEach(keys::add);
        if (destination != null) {
            keys.add(DESTINATION_KEY);
        }
        Properties effective = new Properties();
        for (String key : keys) {
            String value = get(key);
            if (value != null && !value.isEmpty()) {
                effective.setProperty(key, value);
            }
        }
        return effective;
    }

    private static boolean nonBlank(String value) {
        return value != null && !value.isBlank();
    }
}
