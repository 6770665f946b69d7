package dev.canal.instance.spring;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.ClientIdentity;
import dev.canal.sink.EventSink;
import dev.canal.store.EventStore;
import java.util.function.Supplier;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An instance together with the Spring context that built it. Stopping the instance closes the context, which
 * releases what the context owns (a ZooKeeper client); starting it again, or after a failed start, builds a
 * fresh context from the same resolved properties.
 */
final class SpringCanalInstance implements CanalInstance {

    /** A built context and the instance bean it holds. */
    record Built(ConfigurableApplicationContext context, CanalInstance instance) {
    }

    private final String destination;
    private final Supplier<Built> builder;
    private Built current; // guarded by this
    private boolean contextOpen; // guarded by this

    SpringCanalInstance(String destination, Supplier<Built> builder) {
        this.destination = destination;
        this.builder = builder;
        this.current = builder.get();
        this.contextOpen = true;
    }

    private synchronized CanalInstance instance() {
        return current.instance();
    }

    @Override
    public String getDestination() {
        return destination;
    }

    @Override
    public EventParser getEventParser() {
        return instance().getEventParser();
    }

    @Override
    public EventStore getEventStore() {
        return instance().getEventStore();
    }

    @Override
    public MetaManager getMetaManager() {
        return instance().getMetaManager();
    }

    @Override
    public EventSink getEventSink() {
        return instance().getEventSink();
    }

    @Override
    public boolean subscribeChange(ClientIdentity identity) {
        return instance().subscribeChange(identity);
    }

    @Override
    public synchronized void start() {
        if (!contextOpen) {
            current = builder.get();
            contextOpen = true;
        }
        try {
            current.instance().start();
        } catch (RuntimeException e) {
            closeContext();
            throw e;
        }
    }

    @Override
    public synchronized void prepare() {
        if (!contextOpen) {
            current = builder.get();
            contextOpen = true;
        }
        current.instance().prepare();
    }

    /** Stops the instance (if it runs) and closes its context; also how an unstarted instance is discarded. */
    @Override
    public synchronized void stop() {
        if (!contextOpen) {
            return;
        }
        try {
            current.instance().stop();
        } finally {
            closeContext();
        }
    }

    @Override
    public synchronized boolean isStart() {
        return contextOpen && current.instance().isStart();
    }

    private void closeContext() {
        contextOpen = false;
        current.context().close();
    }

    @Override
    public String toString() {
        return "SpringCanalInstance[" + destination + "]";
    }
}
