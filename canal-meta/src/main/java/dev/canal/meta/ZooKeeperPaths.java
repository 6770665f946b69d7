package dev.canal.meta;

/** Canal's ZooKeeper node paths for subscriptions, cursors and batch marks. */
public final class ZooKeeperPaths {

    public static final String DESTINATIONS = "/otter/canal/destinations";

    private ZooKeeperPaths() {
    }

    public static String destination(String destination) {
        return DESTINATIONS + "/" + destination;
    }

    /** The node whose existence is the subscription; its numeric name is the client id. */
    public static String client(String destination, short clientId) {
        return destination(destination) + "/" + clientId;
    }

    /** UTF-8 filter text, present only when the client subscribed with a non-blank filter. */
    public static String filter(String destination, short clientId) {
        return client(destination, clientId) + "/filter";
    }

    public static String cursor(String destination, short clientId) {
        return client(destination, clientId) + "/cursor";
    }

    /** Parent of the batch marks. */
    public static String marks(String destination, short clientId) {
        return client(destination, clientId) + "/mark";
    }

    /** A batch mark: the id zero-padded to 10 digits, as ZooKeeper names sequential nodes. */
    public static String mark(String destination, short clientId, long batchId) {
        return marks(destination, clientId) + "/" + String.format("%010d", batchId);
    }
}
