package dev.canal.instance;

/** An instance could not start; the message names the destination and the component that failed. */
public final class InstanceStartException extends RuntimeException {

    private final String destination;
    private final String component;

    public InstanceStartException(String destination, String component, Throwable cause) {
        super("destination " + destination + ": starting the " + component + " failed: " + cause.getMessage(), cause);
        this.destination = destination;
        this.component = component;
    }

    public String destination() {
        return destination;
    }

    public String component() {
        return component;
    }
}
