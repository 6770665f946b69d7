package dev.canal.server;

import dev.canal.instance.CanalInstance;

/**
 * Told when the embedded server starts and stops a destination's instance, so that something outside the
 * pipeline (the metrics exporter) can follow the running instances without the server knowing it.
 */
public interface InstanceListener {

    /** Before the instance starts, so that a listener can hook into its sink before the parser produces. */
    void starting(CanalInstance instance);

    /** After the instance stopped, or after its start failed. */
    void stopped(CanalInstance instance);
}
