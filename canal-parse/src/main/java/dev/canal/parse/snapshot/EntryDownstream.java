package dev.canal.parse.snapshot;

import dev.canal.protocol.CanalEntry;
import java.util.List;

/** Where the parser's ordered stage sends entries on: its transaction buffer and sink. */
@FunctionalInterface
public interface EntryDownstream {

    void accept(List<CanalEntry.Entry> entries) throws InterruptedException;
}
