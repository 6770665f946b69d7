package dev.canal.parse.mysql;

import dev.canal.protocol.position.LogIdentity;

/**
 * Which configured source the parser reads: the master, or the standby after a heartbeat switch. A switch swaps
 * the two, as in Canal, so when the standby fails in turn the parser switches back to the former master.
 */
final class ActiveSource {

    /** A source with the connections to it. */
    record Source(SourceEndpoint endpoint, SourceConnector connector) {

        LogIdentity identity() {
            return endpoint.identity();
        }

        @Override
        public String toString() {
            return endpoint.toString();
        }
    }

    private final Source master;
    private final Source standby;
    private volatile Source current;

    ActiveSource(MysqlParserConfig config) {
        this.master = new Source(config.master(), SourceConnector.of(config, config.master()));
        SourceEndpoint standbyEndpoint = config.standby().source();
        this.standby = standbyEndpoint == null ? null
                : new Source(standbyEndpoint, SourceConnector.of(config, standbyEndpoint));
        this.current = master;
    }

    Source current() {
        return current;
    }

    boolean hasStandby() {
        return standby != null;
    }

    /** Makes the other source the current one and returns it; null (and no change) without a standby. */
    synchronized Source swap() {
        if (standby == null) {
            return null;
        }
        current = current == master ? standby : master;
        return current;
    }
}
