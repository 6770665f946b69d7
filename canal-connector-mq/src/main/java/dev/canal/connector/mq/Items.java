package dev.canal.connector.mq;

import java.util.Arrays;
import java.util.List;

/** Splits a rule setting into its items: separated by {@code ,} or {@code ;}, blanks dropped (docs/mq.md). */
final class Items {

    private Items() {
    }

    static List<String> split(String setting) {
        return Arrays.stream(setting.split("[,;]")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
