package dev.canal.protocol.config;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One configuration key, declared once beside the typed configuration that reads it: its name, the value it takes
 * when absent, what it means, whether Canal 1.1.x has it and whether this server acts on it. The typed reads of
 * {@link TypedProperties}, the start-up warning for keys nothing reads, and docs/configuration.md are all derived
 * from these declarations.
 *
 * <p>A name ending in {@code *} declares a family (every key with that prefix, e.g. {@code kafka.*}); a name
 * containing {@code {destination}} declares one key per destination, and {@code {n}} one key per number (the
 * members of a group instance).
 *
 * @param name         the key, or the family's pattern
 * @param defaultValue the value when the key is absent or blank; null where there is none or it is computed (the
 *                     meaning then says what applies)
 * @param meaning      one or two sentences for the configuration reference
 * @param canal        whether Canal 1.1.x has this key (false: ours alone)
 * @param supported    whether this server acts on it (false: accepted, named in the start-up warning, ignored)
 * @param constraint   what the value must be beyond its type, checked by the typed reads; null when nothing more
 */
public record ConfigKey(String name, String defaultValue, String meaning, boolean canal, boolean supported,
        ValueConstraint constraint) {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{destination}|\\{n}|\\*$");

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(meaning, "meaning");
        if (name.isBlank() || meaning.isBlank()) {
            throw new IllegalArgumentException("a configuration key needs a name and a meaning: '" + name + "'");
        }
    }

    public ConfigKey(String name, String defaultValue, String meaning, boolean canal, boolean supported) {
        this(name, defaultValue, meaning, canal, supported, null);
    }

    /** A Canal key this server implements. */
    public static ConfigKey canal(String name, String defaultValue, String meaning) {
        return new ConfigKey(name, defaultValue, meaning, true, true);
    }

    /** A key of this server that Canal does not have. */
    public static ConfigKey ours(String name, String defaultValue, String meaning) {
        return new ConfigKey(name, defaultValue, meaning, false, true);
    }

    /** A Canal key this server accepts but does not act on. */
    public static ConfigKey unsupported(String name, String meaning) {
        return new ConfigKey(name, null, meaning, true, false);
    }

    /** The same key, its integer value at least {@code min}. */
    public ConfigKey atLeast(long min) {
        return constrained(new ValueConstraint.Range(min, Long.MAX_VALUE));
    }

    /** The same key, its integer value at most {@code max}. */
    public ConfigKey atMost(long max) {
        return constrained(new ValueConstraint.Range(Long.MIN_VALUE, max));
    }

    /** The same key, its integer value from {@code min} to {@code max}. */
    public ConfigKey between(long min, long max) {
        return constrained(new ValueConstraint.Range(min, max));
    }

    /** The same key, its value a power of 2. */
    public ConfigKey powerOfTwo() {
        return constrained(new ValueConstraint.PowerOfTwo());
    }

    /** The same key, its value one of these words, compared ignoring case. */
    public ConfigKey oneOf(String... values) {
        return constrained(new ValueConstraint.OneOf(List.of(values)));
    }

    private ConfigKey constrained(ValueConstraint added) {
        return new ConfigKey(name, defaultValue, meaning, canal, supported, added);
    }

    /** @throws ConfigValueException when the value breaks the declared constraint */
    public void check(String value) {
        if (constraint != null) {
            constraint.check(name, value);
        }
    }

    /** Whether the key as written in a file is this one, or one of its family, per-destination or member keys. */
    public boolean matches(String key) {
        return isExact() ? name.equals(key) : pattern().matcher(key).matches();
    }

    /** Whether this declares one key by its exact name (not a family or a pattern). */
    public boolean isExact() {
        return !PLACEHOLDER.matcher(name).find();
    }

    private Pattern pattern() {
        StringBuilder regex = new StringBuilder();
        var placeholders = PLACEHOLDER.matcher(name);
        int last = 0;
        while (placeholders.find()) {
            regex.append(Pattern.quote(name.substring(last, placeholders.start())));
            regex.append(switch (placeholders.group()) {
                case "{destination}" -> "[^.]+";
                case "{n}" -> "[0-9]+";
                default -> ".*";
            });
            last = placeholders.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(name.substring(last))).toString());
    }
}
