package dev.canal.deployer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The destination list of canal.properties: {@code canal.destinations} or its range form {@code canal.destinations.expr}. */
final class DestinationNames {

    private static final Pattern RANGE = Pattern.compile("(.*)\\{(\\d+)-(\\d+)}");

    private DestinationNames() {
    }

    /** Comma-separated names, trimmed, empty ones dropped, duplicates kept once in first-seen order. */
    static List<String> split(String list) {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(names::add);
        return List.copyOf(names);
    }

    /**
     * {@code prefix{a-b}} expands to {@code prefixa, ..., prefixb}; several expressions may be separated by commas.
     *
     * @throws IllegalArgumentException saying what is wrong with the expression
     */
    static List<String> expand(String expr) {
        List<String> names = new ArrayList<>();
        for (String part : split(expr)) {
            Matcher m = RANGE.matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + part + "' is not of the form prefix{from-to}");
            }
            long from = Long.parseLong(m.group(2));
            long to = Long.parseLong(m.group(3));
            if (from > to || to - from >= 10_000) {
                throw new IllegalArgumentException("range {" + from + "-" + to + "} in '" + part
                        + "' must be ascending and hold at most 10000 names");
            }
            for (long i = from; i <= to; i++) {
                names.add(m.group(1) + i);
            }
        }
        return names;
    }
}
