package dev.canal.instance.spring;

/** A destination's configuration cannot be turned into an instance; the message names the file and key. */
public final class InstanceConfigException extends RuntimeException {

    private final String destination;

    public InstanceConfigException(String destination, String message, Throwable cause) {
        super("destination " + destination + ": " + message, cause);
        this.destination = destination;
    }

    public String destination() {
        return destination;
    }
}
