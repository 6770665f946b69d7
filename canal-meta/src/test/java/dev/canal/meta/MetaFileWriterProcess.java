package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import java.nio.file.Path;
import java.util.List;

/**
 * Child JVM for {@link FileMixedMetaManagerTest}: rewrites a meta.dat as fast as it can with an
 * increasing cursor offset until it is killed.
 */
final class MetaFileWriterProcess {

    private MetaFileWriterProcess() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        ClientIdentity client = new ClientIdentity("example", (short) 1001);
        for (long offset = 1; ; offset++) {
            MetaFile.write(file, new DestinationMeta("example",
                    List.of(new DestinationMeta.ClientData(client, Positions.at(offset)))));
            if (offset == 1) {
                System.out.println("ready");
                System.out.flush();
            }
        }
    }
}
