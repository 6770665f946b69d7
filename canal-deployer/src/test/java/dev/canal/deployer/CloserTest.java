package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CloserTest {

    @Test
    void releasesInReverseOrderOnceEachWhateverAStepThrows() {
        List<String> released = new ArrayList<>();
        Closer closer = new Closer();
        closer.add("the ZooKeeper client", () -> released.add("zookeeper"));
        closer.add("the instances", () -> released.add("instances"));
        closer.add("the TCP server", () -> {
            released.add("tcp");
            throw new IllegalStateException("port already closed");
        });
        closer.add("the auto scan", () -> released.add("scan"));

        closer.close();
        closer.close();

        assertThat(released).containsExactly("scan", "tcp", "instances", "zookeeper");
    }
}
