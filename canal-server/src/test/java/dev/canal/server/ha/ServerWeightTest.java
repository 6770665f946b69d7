package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ServerWeightTest {

    @Test
    void aWeightReadsBackAsWritten() {
        assertThat(ServerWeight.decode(ServerWeight.encode(1))).isEqualTo(1);
        assertThat(ServerWeight.decode(ServerWeight.encode(7))).isEqualTo(7);
        assertThat(ServerWeight.decode(ServerWeight.encode(PlacementConfig.MAX_WEIGHT)))
                .isEqualTo(PlacementConfig.MAX_WEIGHT);
    }

    @Test
    void anEmptyNodeAsCanalWritesItIsAnOrdinaryServer() {
        assertThat(ServerWeight.decode(new byte[0])).isEqualTo(1);
        assertThat(ServerWeight.decode(null)).isEqualTo(1);
    }

    @Test
    void dataThatIsNoWeightCountsAsOne() {
        for (String data : new String[] {"0", "-2", "x", "2.5", "99999", " 3", "{\"weight\":2}"}) {
            assertThat(ServerWeight.decode(data.getBytes(StandardCharsets.UTF_8))).as(data).isEqualTo(1);
        }
    }
}
