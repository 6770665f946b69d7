package dev.canal.server.netty;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code prefix-1}, {@code prefix-2}, ...: the servers' threads never keep the JVM alive. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    public static ThreadFactory named(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + next.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
