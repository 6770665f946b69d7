package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import java.util.List;
import java.util.Objects;

/** The content of one destination's {@code meta.dat}: its subscribed clients and their cursors. */
public record DestinationMeta(String destination, List<ClientData> clientDatas) {

    public DestinationMeta {
        Objects.requireNonNull(destination, "destination");
        clientDatas = List.copyOf(clientDatas);
    }

    /** One subscribed client; {@code cursor} is null when the client has acked nothing yet. */
    public record ClientData(ClientIdentity clientIdentity, LogPosition cursor) {

        public ClientData {
            Objects.requireNonNull(clientIdentity, "clientIdentity");
        }
    }
}
