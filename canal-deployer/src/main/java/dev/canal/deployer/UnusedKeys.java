package dev.canal.deployer;

import dev.canal.instance.spring.InstanceProperties;
import dev.canal.protocol.UntrustedText;
import dev.canal.protocol.config.ConfigKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;

/**
 * The keys of a configuration that nothing here acts on, in two kinds the start-up warning keeps apart: Canal's keys
 * this server accepts but does not implement, and keys nobody declares, most often a misspelling, each with the
 * declared key it is closest to (docs/configuration.md).
 *
 * @param notActedOn Canal's keys not implemented here
 * @param unknown    keys neither this server nor Canal declares
 */
record UnusedKeys(List<UnusedKey> notActedOn, List<UnusedKey> unknown) {

    /** Longest part of a key shown: a file may hold anything, a warning holds a line. */
    private static final int MAX_SHOWN = 200;

    /** A key as written, where it is set, and for an unknown one the declared key it probably misspells, if any. */
    record UnusedKey(String key, String origin, Optional<String> suggestion) {

        @Override
        public String toString() {
            return UntrustedText.escape(key, MAX_SHOWN) + " (" + origin + ")";
        }

        String describeUnknown() {
            return "unknown key " + this + suggestion.map(known -> ", did you mean " + known + "?").orElse("");
        }
    }

    UnusedKeys {
        notActedOn = List.copyOf(notActedOn);
        unknown = List.copyOf(unknown);
    }

    /** The keys of {@code properties} nothing here acts on, but those in {@code reportedAlready}. */
    static UnusedKeys of(InstanceProperties properties, Set<String> reportedAlready) {
        List<UnusedKey> notActedOn = new ArrayList<>();
        List<UnusedKey> unknown = new ArrayList<>();
        List<String> known = ConfigCatalog.exactKeys().stream().map(ConfigKey::name).toList();
        for (String key : new TreeSet<>(properties.effective().stringPropertyNames())) {
            if (reportedAlready.contains(key)) {
                continue;
            }
            Optional<ConfigKey> declared = ConfigCatalog.find(key);
            if (declared.isEmpty()) {
                unknown.add(new UnusedKey(key, properties.originOf(key), KeySpelling.closest(key, known)));
            } else if (!declared.get().supported()) {
                notActedOn.add(new UnusedKey(key, properties.originOf(key), Optional.empty()));
            }
        }
        return new UnusedKeys(notActedOn, unknown);
    }

    static UnusedKeys none() {
        return new UnusedKeys(List.of(), List.of());
    }

    UnusedKeys plus(UnusedKeys more) {
        return new UnusedKeys(Stream.concat(notActedOn.stream(), more.notActedOn.stream()).toList(),
                Stream.concat(unknown.stream(), more.unknown.stream()).toList());
    }

    /** Every key named here, as written in its file. */
    Set<String> keys() {
        Set<String> keys = new TreeSet<>();
        Stream.concat(notActedOn.stream(), unknown.stream()).forEach(entry -> keys.add(entry.key()));
        return keys;
    }

    /** One warning per unknown key, then one naming Canal's keys not acted on; {@code whose} says for what. */
    void warn(Logger log, String whose) {
        for (UnusedKey key : unknown) {
            log.warn("{}{}: ignored", whose, key.describeUnknown());
        }
        if (!notActedOn.isEmpty()) {
            log.warn("{}Canal keys this server does not implement, ignored: {}", whose, notActedOn);
        }
    }

    /**
     * @throws ConfigException naming the first unknown key, its file and the likely intended key, when
     *     {@code canal.config.strict} asks to refuse them
     */
    void refuseUnknown() {
        if (!unknown.isEmpty()) {
            throw new ConfigException(unknown.get(0).describeUnknown() + "; " + CanalServerConfig.STRICT_KEYS.name()
                    + " refuses unknown keys" + (unknown.size() > 1 ? " (" + unknown.size() + " in all)" : ""));
        }
    }
}
