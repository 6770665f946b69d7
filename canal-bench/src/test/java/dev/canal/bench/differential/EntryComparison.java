package dev.canal.bench.differential;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Entry by entry, field by field: every path either side has where the values differ, in entry order, and
 * entries only one side delivered. Position fields (logfileName, logfileOffset, serverId, executeTime, gtid) are
 * compared too: both servers read the same binlog, so they must name the same event.
 */
final class EntryComparison {

    private EntryComparison() {
    }

    static List<Difference> differences(List<EntryFields> canal, List<EntryFields> ours) {
        List<Difference> out = new ArrayList<>();
        for (int i = 0; i < Math.max(canal.size(), ours.size()); i++) {
            if (i >= ours.size()) {
                out.add(new Difference(i, canal.get(i).title(), Difference.ENTRY, "delivered", null));
                continue;
            }
            if (i >= canal.size()) {
                out.add(new Difference(i, ours.get(i).title(), Difference.ENTRY, null, "delivered"));
                continue;
            }
            EntryFields c = canal.get(i);
            EntryFields o = ours.get(i);
            Set<String> paths = new LinkedHashSet<>(c.fields().keySet());
            paths.addAll(o.fields().keySet());
            for (String path : paths) {
                if (!Objects.equals(c.get(path), o.get(path))) {
                    out.add(new Difference(i, c.title(), path, c.get(path), o.get(path)));
                }
            }
        }
        return out;
    }
}
