package dev.canal.testsupport;

import java.util.Properties;

/** Properties written inline in a test, as {@code key, value, key, value, ...}. */
public final class TestProperties {

    private TestProperties() {
    }

    public static Properties of(String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values come in pairs, got " + keyValues.length + " strings");
        }
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }
}
