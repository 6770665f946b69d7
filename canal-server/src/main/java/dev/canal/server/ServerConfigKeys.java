package dev.canal.server;

import dev.canal.protocol.config.ConfigKeySource;
import dev.canal.server.metrics.PrometheusExporter;
import java.util.stream.Stream;

/** The client port's and the metrics endpoint's keys, for the key catalogue. */
public final class ServerConfigKeys extends ConfigKeySource {

    public ServerConfigKeys() {
        super("Client port and metrics", "canal.properties",
                Stream.concat(ServerConfig.KEYS.stream(), Stream.of(PrometheusExporter.PORT, PrometheusExporter.IP)).toList());
    }
}
