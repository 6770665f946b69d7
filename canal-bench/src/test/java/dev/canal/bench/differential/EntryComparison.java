package dev.canal.bench.differential;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Entry by entry, field by field: entries are paired by the binlog event they come from (their header's
 * {@code logfileOffset}, which both sides read from the same binlog), so that an entry only one side delivered is
 * one difference and the entries after it still pair up. Paired entries differ in every path either side has where
 * the values differ; position fields (logfileName, logfileOffset, serverId, executeTime, gtid) are compared too.
 */
final class EntryComparison {

    /** How far ahead an entry's event is looked for on the other side before it counts as delivered by one only. */
    private static final int LOOK_AHEAD = 32;

    private EntryComparison() {
    }

    static List<Difference> differences(List<EntryFields> canal, List<EntryFields> ours) {
        List<Difference> out = new ArrayList<>();
        int c = 0;
        int o = 0;
        while (c < canal.size() || o < ours.size()) {
            if (o >= ours.size() || c < canal.size() && !sameEvent(canal.get(c), ours.get(o))
                    && find(ours, o, offset(canal.get(c))) < 0) {
                out.add(new Difference(c, -1, canal.get(c).title(), Difference.ENTRY, "delivered", null));
                c++;
            } else if (c >= canal.size() || !sameEvent(canal.get(c), ours.get(o))) {
                out.add(new Difference(-1, o, ours.get(o).title(), Difference.ENTRY, null, "delivered"));
                o++;
            } else {
                fields(canal.get(c), ours.get(o), c, o, out);
                c++;
                o++;
            }
        }
        return out;
    }

    private static void fields(EntryFields c, EntryFields o, int canalIndex, int oursIndex, List<Difference> out) {
        Set<String> paths = new LinkedHashSet<>(c.fields().keySet());
        paths.addAll(o.fields().keySet());
        for (String path : paths) {
            if (!Objects.equals(c.get(path), o.get(path))) {
                out.add(new Difference(canalIndex, oursIndex, c.title(), path, c.get(path), o.get(path)));
            }
        }
    }

    private static boolean sameEvent(EntryFields a, EntryFields b) {
        return Objects.equals(offset(a), offset(b));
    }

    private static String offset(EntryFields entry) {
        return entry.get("header.logfileOffset");
    }

    /** The index of the first entry of {@code entries} from {@code from} on with that offset, -1 if none is near. */
    private static int find(List<EntryFields> entries, int from, String offset) {
        for (int i = from; i < Math.min(entries.size(), from + LOOK_AHEAD); i++) {
            if (Objects.equals(offset(entries.get(i)), offset)) {
                return i;
            }
        }
        return -1;
    }
}
