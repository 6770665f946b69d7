package dev.canal.deployer;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigKeySource;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Every configuration key the server declares, gathered from the {@link ConfigKeySource}s on the class path: what
 * the start-up warning, the validation messages and docs/configuration.md are derived from.
 */
final class ConfigCatalog {

    /** canal.properties first, then instance.properties; by title within each. */
    private static final List<ConfigKeySource> SOURCES = ConfigKeySource.all().stream()
            .sorted(Comparator.comparing((ConfigKeySource s) -> !s.file().equals("canal.properties"))
                    .thenComparing(ConfigKeySource::title))
            .toList();

    private ConfigCatalog() {
    }

    static List<ConfigKeySource> sources() {
        return SOURCES;
    }

    static List<ConfigKey> keys() {
        return SOURCES.stream().flatMap(source -> source.keys().stream()).toList();
    }

    static List<ConfigKey> exactKeys() {
        return keys().stream().filter(ConfigKey::isExact).toList();
    }

    /** The declaration of a key as written in a file: its exact one, else the first family or pattern it is in. */
    static Optional<ConfigKey> find(String key) {
        Optional<ConfigKey> exact = exactKeys().stream().filter(k -> k.name().equals(key)).findFirst();
        return exact.isPresent() ? exact : keys().stream().filter(k -> !k.isExact() && k.matches(key)).findFirst();
    }

    /** Declared and acted on; an undeclared key is unknown to Canal and to this server. */
    static boolean isSupported(String key) {
        return find(key).map(ConfigKey::supported).orElse(false);
    }
}
