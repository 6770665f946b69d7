package dev.canal.connector.mq;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The {@link MqMode}s on the class path, found through {@link ServiceLoader}. */
public final class MqModes {

    private MqModes() {
    }

    /** Every mode found, in the order the class path lists them. */
    public static List<MqMode> installed() {
        return ServiceLoader.load(MqMode.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /** The mode named {@code name}, compared ignoring case as Canal reads {@code canal.serverMode}. */
    public static Optional<MqMode> find(String name) {
        return installed().stream().filter(mode -> mode.name().equalsIgnoreCase(name)).findFirst();
    }

    /** The names of the modes found, for an error message. */
    public static List<String> names() {
        return installed().stream().map(MqMode::name).toList();
    }
}
