package dev.canal.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.ClientIdentity;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReconnectingClientsTest {

    private static final ClientIdentity CLIENT = new ClientIdentity("example", (short) 1001, "");

    @Test
    void aClientToldToReconnectIsAwaitedUntilItRollsBack() {
        ReconnectingClients clients = new ReconnectingClients(Duration.ofMinutes(1));
        assertThat(clients.awaited(CLIENT)).isFalse();

        clients.expect("example", (short) 1001);
        assertThat(clients.awaited(CLIENT)).isTrue();
        assertThat(clients.awaited(new ClientIdentity("example", (short) 1002, ""))).as("another client id").isFalse();
        assertThat(clients.awaited(new ClientIdentity("example@billing", (short) 1001, ""))).as("a named consumer")
                .isFalse();

        clients.rolledBack(CLIENT);
        assertThat(clients.awaited(CLIENT)).isFalse();
    }

    @Test
    void aClientThatNeverRollsBackIsServedAgainOnceTheWaitIsOver() {
        ReconnectingClients clients = new ReconnectingClients(Duration.ZERO);
        clients.expect("example", (short) 1001);

        assertThat(clients.awaited(CLIENT)).isFalse();
    }
}
